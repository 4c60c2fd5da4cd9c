import { copyFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expect, test } from 'vitest';
import { runInProcess, startInProcess } from '../../support/in-process-cli.js';
import { startSdkV2Server } from '../../support/sdk-v2-server.js';

// `replay --unmatched passthrough` in the 2026-07-28 era: a call whose live SDK v2 2.4.0 server
// answers `input_required` (an elicitation round) is passed through round by round; the client
// answers the round and retries, the live server gets the answer, the golden holds both rounds, and
// `verify` passes it against the server it came from (and fails it, naming the text, against one
// whose answer changed).

const jsonl = async (path: string): Promise<string[]> =>
  (await readdir(path)).filter((f) => f.endsWith('.jsonl') && !f.startsWith('.'));

test('a 2026-07-28 input_required round passed through is answered by the client, and its golden verifies against the server it came from', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-golden-passthrough-round-'));
  const goldens = join(dir, 'goldens');
  await mkdir(goldens);
  await copyFile('goldens/chatty.jsonl', join(goldens, 'chatty.jsonl'));
  const live = await startSdkV2Server({ legacy: 'reject' });
  const changed = await startSdkV2Server({ legacy: 'reject', confirmWord: 'approved' });
  const replay = await startInProcess([
    'replay',
    goldens,
    '--port',
    '0',
    '--pace',
    'instant',
    '--unmatched',
    'passthrough',
    '--target',
    live.url,
  ]);
  const asked: unknown[] = [];
  try {
    const client = new Client(
      { name: 'round-client', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: {} } },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { ok: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(replay.firstLine)));
    expect(await client.callTool({ name: 'confirm', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'confirmed: {"ok":true}' }],
    });
    await client.close();
  } finally {
    expect(await replay.stop(), replay.stderr()).toBe(0);
  }
  expect(asked).toEqual(['Go ahead?']);
  // The live server saw the retry carrying the client's answer to its round.
  expect(live.calls.at(-1)).toMatchObject({ tool: 'confirm', inputResponses: { confirm: { action: 'accept' } } });
  const added = (await jsonl(goldens)).filter((file) => file !== 'chatty.jsonl');
  expect(added, replay.stderr()).toHaveLength(1);
  const path = join(goldens, added[0] as string);
  const golden = await readFile(path, 'utf8');
  expect(JSON.parse(golden.split('\n')[0] as string)).toMatchObject({ era: 'modern' });
  expect(golden).toContain('input_required');
  expect(golden).toContain('inputResponses');
  try {
    const same = await runInProcess(['verify', '--target', live.url, path]);
    expect(same.code, same.stdout + same.stderr).toBe(0);
    const other = await runInProcess(['verify', '--target', changed.url, path]);
    expect(other.code).not.toBe(0);
    expect(other.stdout + other.stderr).toContain('approved');
  } finally {
    await Promise.all([live.close(), changed.close()]);
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);
