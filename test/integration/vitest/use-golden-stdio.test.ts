import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { isGoldenError } from '../../../src/errors.js';
import { useGolden } from '../../../src/vitest/use-golden.js';

// useGolden over stdio with the SDK v2 client pinned to 2026-07-28: the first test records the
// SDK v2 stdio server through the command useGolden returns, the second replays the golden with a
// server command that cannot start. The update mode is set through MCP_GOLDEN_UPDATE (this suite
// may run in CI, where a missing golden is never recorded); the golden lives in a temporary folder.

const MODERN_SERVER = fileURLToPath(new URL('../../support/sdk-v2-stdio-server.mjs', import.meta.url));
let dir: string;
const saved = process.env.MCP_GOLDEN_UPDATE;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-use-golden-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  process.env.MCP_GOLDEN_UPDATE = 'new';
});
afterEach(() => {
  if (saved === undefined) delete process.env.MCP_GOLDEN_UPDATE;
  else process.env.MCP_GOLDEN_UPDATE = saved;
});

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/** The pinned SDK v2 client calls `progress` through the stdio command useGolden gave. */
async function callProgress(endpoint: { command: string; args: string[] }) {
  const client = new Client({ name: 'pinned', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StdioClientTransport({ command: endpoint.command, args: endpoint.args }));
  const progress: number[] = [];
  const result = await client.callTool(
    { name: 'progress', arguments: { steps: 3, step_ms: 30 } },
    { onprogress: (p: { progress: number }) => progress.push(p.progress) },
  );
  await client.close();
  return { result, progress };
}

test('a missing golden records the stdio server the pinned SDK v2 client starts through useGolden', async () => {
  const endpoint = await useGolden(join(dir, 'v2-stdio'), { stdio: `${process.execPath} ${MODERN_SERVER}` });
  expect(endpoint.mode).toBe('record');
  const { result, progress } = await callProgress(endpoint);
  expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ steps: 3, notified: 3 }) }]);
  expect(progress).toEqual([1, 2, 3]);
  // Written when the test ends, not before.
  expect(await exists(endpoint.path)).toBe(false);
}, 30_000);

test('the golden recorded by the test before is a 2026-07-28 stdio session without initialize', async () => {
  const text = await readFile(join(dir, 'v2-stdio.jsonl'), 'utf8');
  expect(JSON.parse(text.split('\n')[0] as string)).toMatchObject({
    era: 'modern',
    protocolVersion: '2026-07-28',
    transport: 'stdio',
  });
  expect(text).toContain('server/discover');
  expect(text.match(/notifications\/progress/g)).toHaveLength(3);
  expect(text).not.toContain('"initialize"');
});

test('an existing golden is replayed to the pinned client; the server command is not started', async () => {
  // 10x the recorded 30 ms gaps: at instant pace a client starved on a loaded machine reads the progress in one read
  // with the result, and the SDK then drops it (client-faults.md row 23, TS SDK #2580; seen here under load).
  const endpoint = await useGolden(
    join(dir, 'v2-stdio'),
    { stdio: 'no-such-mcp-server-command' },
    { pace: { scale: 10 } },
  );
  expect(endpoint.mode).toBe('replay');
  const { result, progress } = await callProgress(endpoint);
  expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ steps: 3, notified: 3 }) }]);
  expect(progress).toEqual([1, 2, 3]);
}, 30_000);

test('with updates off (CI), a missing golden is an error naming the command, and nothing is started or written', async () => {
  process.env.MCP_GOLDEN_UPDATE = 'none';
  const error = await useGolden(join(dir, 'never'), { stdio: `${process.execPath} ${MODERN_SERVER}` }).catch(
    (e: unknown) => e,
  );
  expect(isGoldenError(error, 'E_GOLDEN_MISSING')).toBe(true);
  expect((error as Error).message).toContain('is missing, and goldens are not recorded in CI');
  expect((error as Error).message).toContain('-u` locally');
  expect(await exists(join(dir, 'never.jsonl'))).toBe(false);
});

test('a target that is not an http:// URL is an [mcp-golden] error before anything starts', async () => {
  const error = await useGolden('typo', { target: '127.0.0.1:3000/mcp' }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isGoldenError(error, 'E_USAGE')).toBe(true);
  expect((error as Error).message).toMatch(
    /^\[mcp-golden\] useGolden\("typo"\): invalid target "127\.0\.0\.1:3000\/mcp": expected the http:\/\/ URL/,
  );
});
