import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer } from '../../../src/server/http-server.js';
import { CLI } from '../../support/cli.js';
import { runInProcess, startInProcess } from '../../support/in-process-cli.js';
import { inspectorCli } from '../../support/inspector-cli.js';
import { startReleaseServer } from '../../support/release-server.mjs';
import { type SdkV2Server, startSdkV2Server } from '../../support/sdk-v2-server.js';
import { useTempDir } from '../../support/temp-dir.js';

// Goldens written by `record --proxy` and by `replay --unmatched passthrough` are sessions of a
// client we did not write (SDK v1, SDK v2, the Inspector CLI): they verify clean, with nothing
// declared, against the unchanged server they came from, and fail naming the text against one
// whose answer changed. Each is named by its calls and timed from its own start.

const temp = useTempDir('mcp-golden-proxy-verify-');

const goldensIn = async (path: string): Promise<string[]> =>
  (await readdir(path).catch(() => [] as string[])).filter((f) => f.endsWith('.jsonl') && !f.startsWith('.')).sort();

/** Runs `drive` against `record --proxy --target url` and returns the folder of goldens it wrote. */
async function recordThroughProxy(name: string, url: string, drive: (proxy: string) => Promise<void>): Promise<string> {
  const out = join(temp.dir, name);
  const proxy = await startInProcess(['record', '--proxy', '--target', url, '--out', out]);
  try {
    await drive(proxy.firstLine);
  } finally {
    expect(await proxy.stop(), proxy.stderr()).toBe(0);
  }
  return out;
}

async function sdkV1Session(url: string): Promise<void> {
  const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
  const transport = new TransportV1(new URL(url));
  await client.connect(transport);
  await client.listTools();
  await client.callTool({ name: 'progress', arguments: { steps: 3, step_ms: 20 } }, undefined, {
    onprogress: () => undefined,
  });
  await client.callTool({ name: 'chatty', arguments: {} });
  await transport.terminateSession();
  await client.close();
}

const header = async (file: string): Promise<Record<string, unknown>> =>
  JSON.parse((await readFile(file, 'utf8')).split('\n')[0] as string) as Record<string, unknown>;

describe('record --proxy in front of the reference server', () => {
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const server = await startReferenceServer();
    url = server.url;
    close = () => server.close();
  });
  afterAll(async () => close());

  test('an SDK v1 session (two calls, progress): named by its calls, timed from its start, verifies clean', async () => {
    const out = await recordThroughProxy('v1', url, sdkV1Session);
    const files = await goldensIn(out);
    expect(files).toHaveLength(1);
    const file = join(out, files[0] as string);
    expect(await header(file)).toMatchObject({ scenario: 'progress-chatty', tool: 'progress' });
    const inspect = await runInProcess(['inspect', file]);
    expect(inspect.stdout).toMatch(/^progress-chatty · /m);
    expect(inspect.stdout).toContain('call: progress {"step_ms":20,"steps":3}');
    // Timed from the session's own first frame, not from when the proxy started.
    const first = JSON.parse((await readFile(file, 'utf8')).split('\n')[1] as string) as { t: number };
    expect(first.t).toBe(0);
    const verify = await runInProcess(['verify', '--target', url, out]);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    expect(verify.stdout).toContain('1 passed');
  }, 60_000);

  test('the Inspector CLI and the SDK v2 client: each session verifies clean', async () => {
    const inspector = await recordThroughProxy('inspector', url, async (proxy) => {
      const run = await inspectorCli([proxy, '--transport', 'http'], 'tools/call', ['--tool-name', 'chatty']);
      expect(run.code, run.stderr).toBe(0);
    });
    const v2 = await recordThroughProxy('v2', url, async (proxy) => {
      const client = new ClientV2({ name: 'sdk-v2', version: '1.0.0' });
      await client.connect(new TransportV2(new URL(proxy)));
      await client.callTool({ name: 'long_output', arguments: { blocks: 2, chars: 30 } });
      await client.close();
    });
    for (const out of [inspector, v2]) {
      expect(await goldensIn(out)).toHaveLength(1);
      const verify = await runInProcess(['verify', '--target', url, out]);
      expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    }
  }, 90_000);
});

test('a golden of the release server passes against v1 and fails naming the text against text-changed', async () => {
  const v1 = await startReleaseServer('v1');
  const changed = await startReleaseServer('text-changed');
  try {
    const out = await recordThroughProxy('release', v1.url, async (proxy) => {
      const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
      const transport = new TransportV1(new URL(proxy));
      await client.connect(transport);
      await client.callTool({ name: 'report', arguments: { topic: 'golden' } });
      await transport.terminateSession();
      await client.close();
    });
    const masks = ['--mask', 'iso-time', '--mask', 'uuid'];
    const same = await runInProcess(['verify', '--target', v1.url, ...masks, out]);
    expect(same.code, same.stdout + same.stderr).toBe(0);
    const drift = await runInProcess(['verify', '--target', changed.url, ...masks, out]);
    expect(drift.code).toBe(1);
    expect(drift.stdout).toContain('"report on golden" != "Report on golden"');
  } finally {
    await v1.close();
    await changed.close();
  }
}, 60_000);

describe('a stateless dual-era SDK v2 server', () => {
  let live: SdkV2Server;
  beforeAll(async () => {
    live = await startSdkV2Server({ legacy: 'stateless' });
  });
  afterAll(async () => live.close());

  const modernCall = async (url: string): Promise<void> => {
    const pinned = new ClientV2(
      { name: 'pinned', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await pinned.connect(new TransportV2(new URL(url)));
    await pinned.callTool({ name: 'greet', arguments: { name: 'modern' } });
    await pinned.close();
  };
  const legacySession = async (url: string): Promise<void> => {
    const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
    await client.connect(new TransportV1(new URL(url)));
    await client.callTool({ name: 'greet', arguments: { name: 'legacy' } });
    await client.close();
  };

  /** Each golden in `out`: its era, and whether it verifies against the live server. */
  async function verifyEach(out: string): Promise<{ era: unknown; code: number | null }[]> {
    const results = [];
    for (const file of await goldensIn(out)) {
      const verify = await runInProcess(['verify', '--target', live.url, join(out, file)]);
      results.push({ era: (await header(join(out, file))).era, code: verify.code });
    }
    return results.sort((a, b) => String(a.era).localeCompare(String(b.era)));
  }

  test('record --proxy: a 2026-07-28 call and a 2025 session are two goldens, each verifies', async () => {
    const out = await recordThroughProxy('dual-proxy', live.url, async (proxy) => {
      await modernCall(proxy);
      await legacySession(proxy);
    });
    expect(await verifyEach(out)).toEqual([
      { era: 'legacy', code: 0 },
      { era: 'modern', code: 0 },
    ]);
  }, 60_000);

  test('replay --unmatched passthrough: the same two, each verifies', async () => {
    // The replay serves one recorded call the clients below do not make: their requests are misses.
    const recorded = await recordThroughProxy('dual-recorded', live.url, async (proxy) => {
      const pinned = new ClientV2({ name: 'p', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await pinned.connect(new TransportV2(new URL(proxy)));
      await pinned.callTool({ name: 'progress', arguments: { steps: 1, step_ms: 5 } });
      await pinned.close();
    });
    const out = join(temp.dir, 'dual-passthrough');
    const replay = await startInProcess([
      'replay',
      recorded,
      '--pace',
      'instant',
      '--unmatched',
      'passthrough',
      '--target',
      live.url,
      '--out',
      out,
    ]);
    try {
      await modernCall(replay.firstLine);
      await legacySession(replay.firstLine);
    } finally {
      expect(await replay.stop(), replay.stderr()).toBe(0);
    }
    expect(await verifyEach(out)).toEqual([
      { era: 'legacy', code: 0 },
      { era: 'modern', code: 0 },
    ]);
  }, 90_000);
});

test('record --proxy --stdio started by the SDK v2 client in auto mode: its version probe writes no golden, its session one that verifies', async () => {
  // The client starts the command twice: a short-lived copy that is only asked server/discover,
  // then the session's. Spawned, because being the command a client starts is what is tested.
  const out = join(temp.dir, 'auto-stdio');
  const server = `${process.execPath} ${fileURLToPath(new URL('../../support/sdk-v2-stdio-server.mjs', import.meta.url))}`;
  const client = new ClientV2({ name: 'auto', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'record', '--proxy', '--stdio', server, '--out', out],
      stderr: 'pipe',
    }),
  );
  await client.callTool({ name: 'progress', arguments: { steps: 2, step_ms: 10 } });
  await client.close();
  let files: string[] = [];
  for (let waited = 0; waited < 10_000 && files.length === 0; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    files = await goldensIn(out);
  }
  // Both copies have ended (the probe's first): one golden, the session's.
  await new Promise((resolve) => setTimeout(resolve, 500));
  files = await goldensIn(out);
  expect(files).toHaveLength(1);
  expect(await header(join(out, files[0] as string))).toMatchObject({ era: 'modern', scenario: 'progress' });
  const verify = await runInProcess(['verify', '--stdio', server, out]);
  expect(verify.code, verify.stdout + verify.stderr).toBe(0);
}, 60_000);
