import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createGoldenHandlers } from '../../../src/msw/create-golden-handlers.js';
import { type ReferenceServer, startReferenceServer } from '../../../src/server/http-server.js';
import { useGolden } from '../../../src/vitest/use-golden.js';

// useGolden's msw option with the SDK v1 client under msw's setupServer: the first test records the
// reference server through the handlers (forwarded to useGolden's recording proxy), the second
// replays the golden in process with the server stopped. The client only ever calls a URL no
// server listens on. The update mode is set through MCP_GOLDEN_UPDATE (this suite may run in CI,
// where a missing golden is never recorded); the golden lives in a temporary folder.

const UPSTREAM = 'http://upstream.test/mcp';
const msw = setupServer();
let live: ReferenceServer | undefined;
let dir: string;
let recorded: { readonly signal: AbortSignal } | undefined;
const saved = process.env.MCP_GOLDEN_UPDATE;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-msw-'));
  live = await startReferenceServer();
  msw.listen({ onUnhandledRequest: 'error' });
});
afterAll(async () => {
  msw.close();
  await live?.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  process.env.MCP_GOLDEN_UPDATE = 'new';
});
afterEach(() => {
  msw.resetHandlers();
  if (saved === undefined) delete process.env.MCP_GOLDEN_UPDATE;
  else process.env.MCP_GOLDEN_UPDATE = saved;
});

/** The SDK v1 client, at the URL msw intercepts, calls `progress` with a progress callback. */
async function callProgress() {
  const client = new Client({ name: 'msw-v1', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(UPSTREAM)));
  const progress: number[] = [];
  const result = await client.callTool({ name: 'progress', arguments: { steps: 3, step_ms: 20 } }, undefined, {
    onprogress: (p: { progress: number }) => progress.push(p.progress),
  });
  await client.close();
  return { result, progress };
}

describe('createGoldenHandlers with the SDK v1 client under setupServer', () => {
  test('a missing golden is recorded through the handlers, the SDK GET stream and 202 answers included', async () => {
    const golden = await useGolden(join(dir, 'progress'), { target: live?.url ?? '' });
    expect(golden.mode).toBe('record');
    recorded = golden;
    msw.use(...createGoldenHandlers(golden, { url: UPSTREAM }));
    const { result, progress } = await callProgress();
    expect(result.structuredContent).toEqual({ steps: 3, notified: true, done: true });
    expect(progress).toEqual([1, 2, 3]);
  }, 20_000);

  test('the golden recorded through msw is served in process with the server stopped', async () => {
    // The handlers of the recording stop with the test that started them.
    expect(recorded?.signal.aborted).toBe(true);
    const text = await readFile(join(dir, 'progress.jsonl'), 'utf8');
    // Recorded as the client spoke: its requests, the 202 to notifications/initialized, the GET stream.
    expect(text).toContain('notifications/initialized');
    expect(text).toMatch(/"method":"GET"/);
    expect(text).toContain('"status":202');
    expect(text).not.toContain('msw/passthrough');
    await live?.close();
    live = undefined;
    const golden = await useGolden(join(dir, 'progress'), { target: 'http://127.0.0.1:9/mcp' }, { pace: 'instant' });
    expect(golden.mode).toBe('replay');
    expect(golden.replaying?.pace).toBe('instant');
    // Served in process: the handlers do not go to useGolden's loopback replay (here a closed port).
    msw.use(...createGoldenHandlers({ ...golden, url: 'http://127.0.0.1:9/mcp' }, { url: UPSTREAM }));
    const { result, progress } = await callProgress();
    expect(result.structuredContent).toEqual({ steps: 3, notified: true, done: true });
    expect(progress).toEqual([1, 2, 3]);
  }, 20_000);
});
