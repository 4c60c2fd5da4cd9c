import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { lintTranscript } from '../../../src/lint/lint-transcript.js';
import { recordCall } from '../../../src/record/record-call.js';
import { writeGolden } from '../../../src/store/golden-file.js';
import type { Frame, Transcript } from '../../../src/transcript/frame.js';
import { runInProcess } from '../../support/in-process-cli.js';
import { type SdkV2Server, startSdkV2Server } from '../../support/sdk-v2-server.js';

// The modern era's stream rules, judged on goldens recorded from SDK v2 (2.4.0) servers.

const slowCall = {
  tool: 'progress',
  arguments: { steps: 2, step_ms: 400 },
  progressToken: 'k',
  era: 'modern',
} as const;

describe('keep-alive: a long silent modern SSE stream', () => {
  let quiet: SdkV2Server;
  let keeping: SdkV2Server;
  beforeAll(async () => {
    quiet = await startSdkV2Server({ legacy: 'reject', keepAliveMs: 0 });
    keeping = await startSdkV2Server({ legacy: 'reject', keepAliveMs: 40 });
  });
  afterAll(async () => {
    await quiet.close();
    await keeping.close();
  });

  test('names a stream silent longer than the bound when the server sends no keep-alive comments', async () => {
    const golden = await recordCall(quiet.url, slowCall);
    const report = lintTranscript(golden, { keepAliveMs: 200 });
    expect(report.violations.map((v) => v.rule)).toEqual(['keep-alive']);
    const [v] = report.violations;
    expect(v?.message).toMatch(/^the SSE response of exchange \d+ was silent for \d+\.\d ms \(lines \d+-\d+\)/);
    expect(v?.expected).toContain('at least every 200 ms (--keep-alive-ms)');
    // Under the default bound (20000 ms) 400 ms of silence is fine.
    expect(lintTranscript(golden).violations).toEqual([]);
  });

  test('passes a call silent longer than the bound when the server keeps the stream alive with `:` comments', async () => {
    // 1.5 s steps against a 1 s bound: only the comments (every 40 ms) keep it within; the margin
    // holds a loaded machine's timer stalls, which a 200 ms bound did not.
    const golden = await recordCall(keeping.url, { ...slowCall, arguments: { steps: 2, step_ms: 1500 } });
    const comments = golden.frames.filter((f) => f.channel === 'sse' && f.raw?.startsWith(':'));
    expect(comments.length).toBeGreaterThan(3);
    expect(lintTranscript(golden, { keepAliveMs: 1000 }).violations).toEqual([]);
    const withoutComments = { ...golden, frames: golden.frames.filter((f) => !comments.includes(f)) };
    expect(lintTranscript(withoutComments, { keepAliveMs: 1000 }).violations.map((v) => v.rule)).toEqual([
      'keep-alive',
    ]);
  });

  test('mcp-golden lint --keep-alive-ms sets the bound; the default passes the same golden', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-golden-keep-alive-'));
    try {
      const file = join(dir, 'quiet.jsonl');
      await writeGolden(file, await recordCall(quiet.url, slowCall));
      const tight = await runInProcess(['lint', file, '--keep-alive-ms', '200']);
      expect(tight.code, tight.stdout + tight.stderr).toBe(1);
      expect(tight.stdout).toContain('keep-alive: the SSE response of exchange');
      expect(tight.stdout).toContain('(--keep-alive-ms)');
      const loose = await runInProcess(['lint', file]);
      expect(loose.code, loose.stdout + loose.stderr).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('a legacy golden is not judged on keep-alive', async () => {
    const golden = await recordCall(quiet.url, slowCall);
    const legacy: Transcript = { ...golden, header: { ...golden.header, era: 'legacy' } };
    expect(lintTranscript(legacy, { keepAliveMs: 200 }).violations.map((v) => v.rule)).not.toContain('keep-alive');
  });
});

describe('after-close: notifications for a request whose stream the client closed', () => {
  let live: SdkV2Server;
  let cancelled: Transcript;
  beforeAll(async () => {
    live = await startSdkV2Server({ legacy: 'reject' });
    cancelled = await recordCall(live.url, {
      tool: 'progress',
      arguments: { steps: 40, step_ms: 50 },
      progressToken: 9,
      cancelAfter: 2,
      era: 'modern',
    });
  });
  afterAll(async () => {
    await live.close();
  });

  /** The cancelled golden with two SSE events on the closed stream, 1 ms and 2 ms after its close frame. */
  function afterClose(extra: (index: number) => string): Transcript {
    const frames = [...cancelled.frames];
    const at = frames.findIndex((f) => f.channel === 'close');
    const close = frames[at] as Frame;
    const added: Frame[] = [0, 1].map((i) => ({
      t: close.t + (i + 1) * 1000,
      dir: 'server->client',
      channel: 'sse',
      exchange: close.exchange,
      raw: `event: message\ndata: ${extra(i)}\n\n`,
    }));
    frames.splice(at + 1, 0, ...added);
    return {
      ...cancelled,
      frames: frames.map((f, i) => (i > at + 2 && f.t < close.t + 2000 ? { ...f, t: close.t + 2000 } : f)),
    };
  }

  test('the recorded cancel passes: the SDK v2 server stops at its abort signal', () => {
    expect(cancelled.frames.some((f) => f.channel === 'close')).toBe(true);
    expect(lintTranscript(cancelled).violations).toEqual([]);
  });

  test('names a progress and a log notification sent on the stream after the close frame', () => {
    const golden = afterClose((i) =>
      i === 0
        ? JSON.stringify({
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { progressToken: 9, progress: 3, total: 40 },
          })
        : JSON.stringify({
            jsonrpc: '2.0',
            method: 'notifications/message',
            params: { level: 'info', data: 'still working' },
          }),
    );
    const found = lintTranscript(golden).violations.filter((v) => v.rule === 'after-close');
    expect(found.map((v) => v.got)).toEqual(['notifications/progress', 'notifications/message']);
    expect(found[0]?.message).toMatch(
      /^notifications\/progress was sent 1\.0 ms after the client closed the stream of exchange \d+ \(line \d+\)$/,
    );
    expect(found[0]?.call).toBeDefined();
  });

  test('a legacy golden is not judged on after-close', () => {
    const golden = afterClose(() =>
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }),
    );
    const legacy: Transcript = { ...golden, header: { ...golden.header, era: 'legacy' } };
    expect(lintTranscript(legacy).violations.map((v) => v.rule)).not.toContain('after-close');
  });
});
