import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReferenceServer } from '../../../src/server/http-server.js';
import { runInProcess, startInProcess } from '../../support/in-process-cli.js';
import { type SdkV2Server, startSdkV2Server } from '../../support/sdk-v2-server.js';
import { startEverythingHttp } from '../../support/server-everything.js';

// `replay --unmatched passthrough` in the 2026-07-28 era: a modern request no golden matches goes
// to a modern target as it came (envelope, Mcp-* headers, no session), its answer streams back,
// and it is recorded as a 2026-07-28 golden that then replays with no live server. A 2025-only
// target gets the client a clear error instead.

const NAME = 'Zoë 東京';
let dir: string;
let live: SdkV2Server | undefined;
let goldens: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-modern-passthrough-'));
  live = await startSdkV2Server({ legacy: 'reject' });
  goldens = join(dir, 'goldens');
  const scenarios = join(dir, 'scenarios.json');
  await writeFile(
    scenarios,
    JSON.stringify([
      { name: 'progress', tool: 'progress', arguments: { steps: 2, step_ms: 20 }, progressToken: 'p-1' },
    ]),
  );
  const recorded = await runInProcess([
    'record',
    '--target',
    live.url,
    '--era',
    'modern',
    '--scenarios',
    scenarios,
    '--out',
    goldens,
  ]);
  expect(recorded.code, recorded.stderr).toBe(0);
}, 60_000);
afterAll(async () => {
  await live?.close();
  await rm(dir, { recursive: true, force: true });
});

async function pinned(url: string): Promise<Client> {
  const client = new Client({ name: 'pinned', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

const jsonl = async (path: string): Promise<string[]> =>
  (await readdir(path)).filter((f) => f.endsWith('.jsonl') && !f.startsWith('.'));

async function progressCall(client: Client, steps: number): Promise<{ text: string; progress: number[] }> {
  const progress: number[] = [];
  const result = await client.callTool(
    { name: 'progress', arguments: { steps, step_ms: 20 } },
    { onprogress: (p: { progress: number }) => progress.push(p.progress) },
  );
  return { text: JSON.stringify(result.content), progress };
}

test('a modern miss is passed to the modern target with its headers and progress, recorded as a 2026-07-28 golden, and replays without it', async () => {
  const target = live as SdkV2Server;
  const before = await jsonl(goldens);
  expect(before).toHaveLength(1);
  const callsBefore = target.calls.length;
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
    target.url,
  ]);
  let code: number | null;
  let passed: { text: string; progress: number[] };
  try {
    const client = await pinned(replay.firstLine);
    // Recorded: answered from the golden, the target sees no call.
    expect((await progressCall(client, 2)).progress).toEqual([1, 2]);
    expect(target.calls.length).toBe(callsBefore);
    // Not recorded: the SDK v2 target checks the Mcp-Param-Name header the client sent (base64, non-ASCII).
    expect(await client.callTool({ name: 'greet', arguments: { name: NAME } })).toMatchObject({
      content: [{ type: 'text', text: `hello, ${NAME}` }],
    });
    passed = await progressCall(client, 3);
    expect(passed.progress).toEqual([1, 2, 3]);
    expect(target.calls.at(-1)).toMatchObject({ tool: 'progress', steps: 3, aborted: false });
    await client.close();
  } finally {
    code = await replay.stop();
  }
  expect(code, replay.stderr()).toBe(0);
  expect(replay.stderr()).toContain('1 unmatched, 2 passed through to');
  expect(replay.stderr()).toContain('passed through: tools/call greet (HTTP 200)');
  expect(replay.stderr()).toContain('passed through: tools/call progress (HTTP 200)');
  const added = (await jsonl(goldens)).filter((f) => !before.includes(f));
  expect(added, replay.stderr()).toHaveLength(1);
  const text = await readFile(join(goldens, added[0] as string), 'utf8');
  const header = JSON.parse(text.split('\n')[0] as string) as { era?: string; protocolVersion?: string };
  expect(header).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
  expect(text).toContain(`hello, ${NAME}`);
  expect(text).not.toContain('mcp-session-id');

  // No live server from here on: the new golden answers both passed-through calls.
  await target.close();
  live = undefined;
  const again = await startInProcess(['replay', goldens, '--port', '0', '--pace', 'instant']);
  try {
    const client = await pinned(again.firstLine);
    expect(await client.callTool({ name: 'greet', arguments: { name: NAME } })).toMatchObject({
      content: [{ type: 'text', text: `hello, ${NAME}` }],
    });
    expect(await progressCall(client, 3)).toEqual(passed);
    await client.close();
  } finally {
    await again.stop();
  }
  // The one refusal: the SDK v2 client's first greet carries no Mcp-Param-Name (it has not listed
  // the tools yet); the replay answers -32020 as a 2026-07-28 server does, and the client lists the
  // tools and sends it again with the header.
  expect(again.stderr()).toContain('5 requests received, 1 unmatched');
}, 120_000);

test('a modern miss toward a 2025-only target gets the client a clear error, and nothing is written', async () => {
  const only = join(dir, 'toward-legacy');
  await mkdir(only);
  for (const file of await jsonl(goldens)) await copyFile(join(goldens, file), join(only, file));
  const before = await jsonl(only);
  const everything = await startEverythingHttp();
  const replay = await startInProcess([
    'replay',
    only,
    '--port',
    '0',
    '--unmatched',
    'passthrough',
    '--target',
    everything.url,
  ]);
  try {
    const client = await pinned(replay.firstLine);
    await expect(client.callTool({ name: 'echo', arguments: { message: 'modern' } })).rejects.toThrow(
      /--unmatched passthrough cannot pass this 2026-07-28 request to .*: the live server does not speak 2026-07-28 \(its server\/discover answered HTTP 4\d\d/,
    );
    await client.close();
  } finally {
    await replay.stop();
    await everything.stop();
  }
  expect(replay.stderr()).toContain('passed through: tools/call echo (refused: the target does not speak 2026-07-28)');
  expect(await jsonl(only)).toEqual(before);
}, 60_000);

test('toward a dual-era target, a 2025 session and 2026-07-28 requests passed through are written as a golden of each era', async () => {
  const mixed = join(dir, 'mixed');
  await mkdir(mixed);
  for (const file of await jsonl(goldens)) await copyFile(join(goldens, file), join(mixed, file));
  const before = await jsonl(mixed);
  const serve = await startReferenceServer();
  const replay = await startInProcess([
    'replay',
    mixed,
    '--port',
    '0',
    '--unmatched',
    'passthrough',
    '--target',
    serve.url,
  ]);
  try {
    const modern = await pinned(replay.firstLine);
    const v1 = new ClientV1({ name: 'v1', version: '1' });
    const transport = new TransportV1(new URL(replay.firstLine));
    await v1.connect(transport);
    const [fromModern, fromLegacy] = await Promise.all([
      modern.callTool({ name: 'chatty', arguments: {} }),
      v1.callTool({ name: 'chatty', arguments: {} }),
    ]);
    expect(fromModern.content).toEqual(fromLegacy.content);
    await transport.terminateSession();
    await Promise.all([modern.close(), v1.close()]);
  } finally {
    await replay.stop();
    await serve.close();
  }
  expect(replay.stderr()).toContain('2 passed through to');
  const added = (await jsonl(mixed)).filter((f) => !before.includes(f));
  expect(added, replay.stderr()).toHaveLength(2);
  const headers = await Promise.all(
    added.map(async (f) => JSON.parse((await readFile(join(mixed, f), 'utf8')).split('\n')[0] as string)),
  );
  expect(
    headers.map((h: { era?: string; protocolVersion?: string }) => `${h.era} ${h.protocolVersion}`).sort(),
  ).toEqual(['legacy 2025-11-25', 'modern 2026-07-28']);
}, 60_000);
