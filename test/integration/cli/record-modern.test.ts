import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseTranscript } from '../../../src/transcript/parse.js';
import { runInProcess, startInProcess } from '../../support/in-process-cli.js';
import { SDK_V2_SCENARIOS, type SdkV2Server, startSdkV2Server } from '../../support/sdk-v2-server.js';

let dir: string;
let modernOnly: SdkV2Server;
let dualEra: SdkV2Server;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-modern-'));
  await writeFile(join(dir, 'scenarios.json'), JSON.stringify(SDK_V2_SCENARIOS));
  [modernOnly, dualEra] = await Promise.all([
    startSdkV2Server({ legacy: 'reject' }),
    startSdkV2Server({ legacy: 'stateless' }),
  ]);
});
afterAll(async () => {
  await Promise.all([modernOnly.close(), dualEra.close()]);
  await rm(dir, { recursive: true, force: true });
});

const goldenFiles = async (out: string) =>
  (await readdir(out)).filter((f) => f.endsWith('.jsonl')).map((f) => join(out, f));

const golden = async (out: string, name: string) =>
  parseTranscript(await readFile(join(out, `${name}.jsonl`), 'utf8'), { source: name });

describe('mcp-golden record against SDK v2 servers (2026-07-28)', () => {
  test('records a modern-only server with --era modern: progress, an input_required round, a cancel by closing the stream', async () => {
    const out = join(dir, 'modern-only');
    const scenarios = join(dir, 'scenarios.json');
    const result = await runInProcess([
      'record',
      '--target',
      modernOnly.url,
      '--scenarios',
      scenarios,
      '--out',
      out,
      '--era',
      'modern',
    ]);
    expect(result.stderr).toContain('3 goldens written');
    expect(result.code).toBe(0);
    for (const name of ['modern-progress', 'modern-confirm', 'modern-cancel']) {
      const { header } = await golden(out, name);
      expect(header).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
    }
    const progress = await golden(out, 'modern-progress');
    expect(
      progress.frames.filter((f) => f.raw?.includes('notifications/progress') && f.channel === 'sse'),
    ).toHaveLength(4);
    const confirm = await golden(out, 'modern-confirm');
    expect(confirm.frames.filter((f) => f.channel === 'json' && f.raw?.includes('"inputResponses"'))).toHaveLength(1);
    const cancel = await golden(out, 'modern-cancel');
    expect(cancel.frames.some((f) => f.channel === 'close' && f.dir === 'client->server')).toBe(true);
    // The handler of the cancelled call saw its abort signal.
    expect(modernOnly.calls.filter((c) => c.tool === 'progress' && c.aborted)).toHaveLength(1);
  });

  test('with no --era, a dual-era server is recorded as 2026-07-28', async () => {
    const out = join(dir, 'dual');
    const result = await runInProcess([
      'record',
      'modern-progress',
      '--target',
      dualEra.url,
      '--scenarios',
      join(dir, 'scenarios.json'),
      '--out',
      out,
    ]);
    expect(result.code).toBe(0);
    expect((await golden(out, 'modern-progress')).header).toMatchObject({
      era: 'modern',
      protocolVersion: '2026-07-28',
    });
  });

  test("--era legacy against a modern-only server fails with the server's -32022 and writes no golden", async () => {
    const out = join(dir, 'refused');
    const result = await runInProcess([
      'record',
      'modern-progress',
      '--target',
      modernOnly.url,
      '--scenarios',
      join(dir, 'scenarios.json'),
      '--out',
      out,
      '--era',
      'legacy',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('-32022');
    await expect(readFile(join(out, 'modern-progress.jsonl'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  test('--era modern: the advice fits the failure (a wrong path or a closed port: the target; a 2025 server: --era legacy)', async () => {
    const scenarios = join(dir, 'scenarios.json');
    const record = (target: string) =>
      runInProcess([
        'record',
        'modern-progress',
        '--target',
        target,
        '--scenarios',
        scenarios,
        '--out',
        join(dir, 'advice'),
        '--era',
        'modern',
      ]);
    const legacyOnly = await startInProcess(['serve', '--era', 'legacy', '--port', '0']);
    try {
      const old = await record(legacyOnly.firstLine);
      expect(old.code).toBe(1);
      expect(old.stderr).toContain('Record a 2025 server with --era legacy');
      const notFound = await record(legacyOnly.firstLine.replace(/\/mcp$/, '/nope'));
      expect(notFound.code).toBe(1);
      expect(notFound.stderr).toContain('HTTP 404');
      expect(notFound.stderr).toContain('check the path in --target');
      expect(notFound.stderr).not.toContain('--era legacy');
    } finally {
      await legacyOnly.stop();
    }
    const closed = await startSdkV2Server({ legacy: 'reject' });
    await closed.close();
    const refused = await record(closed.url);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('ECONNREFUSED');
    expect(refused.stderr).not.toContain('--era legacy');
  });

  test('--era sideways is a usage error', async () => {
    const result = await runInProcess(['record', '--era', 'sideways', '--list']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('expected one of legacy, modern, auto');
  });

  test('mcp-golden serve answers the SDK v2 client pinned to 2026-07-28 with its progress', async () => {
    const served = await startInProcess(['serve']);
    const client = new ClientV2({ name: 'v2', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      await client.connect(new TransportV2(new URL(served.firstLine)));
      const progress: number[] = [];
      const result = await client.callTool(
        { name: 'progress', arguments: { steps: 3, step_ms: 20 } },
        { onprogress: (p: { progress: number }) => progress.push(p.progress) },
      );
      expect(progress).toEqual([1, 2, 3]);
      expect(result.structuredContent).toEqual({ steps: 3, notified: true, done: true });
    } finally {
      await client.close();
      await served.stop();
    }
  });

  test('mcp-golden replay of a directory of 2025 and 2026 goldens serves the SDK v1 client and the pinned v2 client', async () => {
    const out = join(dir, 'both-eras');
    const scenarios = join(dir, 'scenarios.json');
    const modern = await runInProcess([
      'record',
      'modern-progress',
      '--target',
      modernOnly.url,
      '--scenarios',
      scenarios,
      '--out',
      out,
    ]);
    expect(modern.code).toBe(0);
    const legacy = await runInProcess(['record', 'chatty', '--out', out]);
    expect(legacy.code).toBe(0);
    expect((await golden(out, 'chatty')).header.era).toBe('legacy');
    const replay = await startInProcess(['replay', out, '--port', '0', '--pace', 'instant']);
    const v1 = new ClientV1({ name: 'v1', version: '1' });
    const v2 = new ClientV2({ name: 'v2', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      await v1.connect(new TransportV1(new URL(replay.firstLine)));
      await v2.connect(new TransportV2(new URL(replay.firstLine)));
      expect(replay.stderr()).toMatch(/replaying \d+ goldens on /);
      const chatty = await v1.callTool({ name: 'chatty', arguments: {} });
      expect((chatty.content as unknown[]).length).toBe(4);
      const progress: number[] = [];
      const result = await v2.callTool(
        { name: 'progress', arguments: { steps: 4, step_ms: 30 } },
        { onprogress: (p: { progress: number }) => progress.push(p.progress) },
      );
      expect(progress).toEqual([1, 2, 3, 4]);
      expect(result.structuredContent).toEqual({ steps: 4, notified: 4, done: true });
    } finally {
      await Promise.all([v1.close(), v2.close()]);
      await replay.stop();
    }
  });

  test('mcp-golden verify passes the modern goldens twice against the live server and fails naming both texts when one changes; lint passes them', async () => {
    const out = join(dir, 'verify');
    const scenarios = join(dir, 'scenarios.json');
    expect(
      (await runInProcess(['record', '--target', modernOnly.url, '--scenarios', scenarios, '--out', out])).code,
    ).toBe(0);
    for (let run = 0; run < 2; run++) {
      const verified = await runInProcess(['verify', '--target', modernOnly.url, out]);
      expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    }
    const lint = await runInProcess(['lint', ...(await goldenFiles(out))]);
    expect(lint.code, lint.stdout + lint.stderr).toBe(0);
    const changed = await startSdkV2Server({ legacy: 'reject', confirmWord: 'approved' });
    try {
      const verified = await runInProcess(['verify', '--target', changed.url, join(out, 'modern-confirm.jsonl')]);
      expect(verified.code).toBe(1);
      const shown = verified.stdout + verified.stderr;
      expect(shown).toContain('confirmed: {');
      expect(shown).toContain('approved: {');
    } finally {
      await changed.close();
    }
  });

  test('mcp-golden lint names x-accel-buffering for a server whose SSE responses omit X-Accel-Buffering: no', async () => {
    const omitting = await startSdkV2Server({ legacy: 'reject', omitAccelHeader: true });
    const out = join(dir, 'no-accel');
    try {
      const recorded = await runInProcess([
        'record',
        'modern-progress',
        '--target',
        omitting.url,
        '--scenarios',
        join(dir, 'scenarios.json'),
        '--out',
        out,
      ]);
      expect(recorded.code).toBe(0);
    } finally {
      await omitting.close();
    }
    const lint = await runInProcess(['lint', ...(await goldenFiles(out))]);
    expect(lint.code).toBe(1);
    expect(lint.stdout + lint.stderr).toContain('x-accel-buffering');
  });
});
