import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { beforeAll, expect, test } from 'vitest';
import { recordCall } from '../../src/record/record-call.js';
import { writeGolden } from '../../src/store/golden-file.js';
import { CLI } from '../support/cli.js';
import { startSdkV2Server } from '../support/sdk-v2-server.js';
import { EVERYTHING } from '../support/server-everything.js';
import { useTempDir } from '../support/temp-dir.js';

// `replay --stdio --unmatched passthrough --target-stdio CMD` in the 2026-07-28 era: a modern client
// sends no initialize, so the live command is asked with server/discover instead, and each modern
// miss is passed to it as it came; a 2025-only command gets the client a clear error.

const MODERN_SERVER = fileURLToPath(new URL('../support/sdk-v2-stdio-server.mjs', import.meta.url));
const temp = useTempDir('mcp-golden-modern-stdio-passthrough-');
beforeAll(async () => {
  const live = await startSdkV2Server({ legacy: 'reject' });
  try {
    const golden = await recordCall(live.url, {
      tool: 'progress',
      arguments: { steps: 2, step_ms: 20 },
      progressToken: 'p-1',
      era: 'modern',
    });
    for (const sub of ['modern-target', 'legacy-target']) {
      await mkdir(join(temp.dir, sub));
      await writeGolden(join(temp.dir, sub, 'progress.jsonl'), golden);
    }
  } finally {
    await live.close();
  }
}, 60_000);

const jsonl = async (path: string): Promise<string[]> =>
  (await readdir(path)).filter((f) => f.endsWith('.jsonl') && !f.startsWith('.'));

/** The SDK v2 client pinned to 2026-07-28 on `replay --stdio` with pass-through to `target`, and its stderr. */
async function pinnedOnReplay(goldens: string, target: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      CLI,
      'replay',
      '--stdio',
      '--pace',
      'recorded',
      goldens,
      '--unmatched',
      'passthrough',
      '--target-stdio',
      target,
    ],
    stderr: 'pipe',
  });
  let stderr = '';
  (transport.stderr as NodeJS.ReadableStream | null)?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const client = new Client({ name: 'pinned', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  const until = Date.now() + 10_000;
  while (!(await check()) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
}

test('a modern miss over stdio is answered by the modern command with its progress and recorded as a 2026-07-28 golden', async () => {
  const goldens = join(temp.dir, 'modern-target');
  const { client, stderr } = await pinnedOnReplay(goldens, `${process.execPath} ${MODERN_SERVER}`);
  const progress: number[] = [];
  const result = await client.callTool(
    { name: 'progress', arguments: { steps: 3, step_ms: 100 } },
    { onprogress: (p: { progress: number }) => progress.push(p.progress) },
  );
  expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ steps: 3, notified: 3 }) }]);
  expect(progress).toEqual([1, 2, 3]);
  await client.close();
  await waitFor(async () => (await jsonl(goldens)).length === 2 && stderr().includes('recorded:'));
  const added = (await jsonl(goldens)).filter((f) => f !== 'progress.jsonl');
  expect(added, stderr()).toHaveLength(1);
  expect(stderr()).toContain('passed through: tools/call progress (answered)');
  const text = await readFile(join(goldens, added[0] as string), 'utf8');
  expect(JSON.parse(text.split('\n')[0] as string)).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
  // The live server was asked with server/discover (no initialize), then the call and its 3 notifications.
  expect(text).toContain('server/discover');
  expect(text.match(/notifications\/progress/g)).toHaveLength(3);
  expect(text).not.toContain('"initialize"');
}, 60_000);

test('a modern miss over stdio toward a 2025-only command gets a clear error, and nothing is written', async () => {
  const goldens = join(temp.dir, 'legacy-target');
  const { client, stderr } = await pinnedOnReplay(goldens, `${process.execPath} ${EVERYTHING} stdio`);
  await expect(client.callTool({ name: 'echo', arguments: { message: 'modern' } })).rejects.toThrow(
    /--unmatched passthrough cannot pass this 2026-07-28 request to .*: the live server does not speak 2026-07-28 \(its server\/discover answered/,
  );
  await client.close();
  await waitFor(async () => stderr().includes('passed through:'));
  expect(stderr()).toContain('passed through: tools/call echo (refused: the target does not speak 2026-07-28)');
  expect(await jsonl(goldens)).toEqual(['progress.jsonl']);
}, 60_000);
