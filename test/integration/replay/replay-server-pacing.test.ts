import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { recordCall } from '../../../src/record/record-call.js';
import { scenarioOfGolden } from '../../../src/record/scenario-of-golden.js';
import { paceInOrder } from '../../../src/replay/pacing.js';
import { createReplayServer } from '../../../src/replay/replay-server.js';
import { readGolden } from '../../../src/store/golden-file.js';
import type { Frame, Transcript } from '../../../src/transcript/frame.js';
import { frameMessage } from '../../../src/transcript/frame-content.js';
import { startCli } from '../../support/cli.js';

// The real-time figures of the replay server. This file runs alone, after every other file (the
// 'timing' project in vitest.config.ts), so it measures the product and not the load of other
// test files on a 2-core machine; the rest of the replay server's tests run in parallel with the suite.

const GOLDENS = fileURLToPath(new URL('../../../goldens', import.meta.url));
const golden = (name: string): Promise<Transcript> => readGolden(join(GOLDENS, `${name}.jsonl`));

const callStart = (t: Transcript): Frame | undefined =>
  t.frames.find(
    (f) =>
      f.channel === 'http' &&
      t.frames.some((g) => g.exchange === f.exchange && frameMessage(g)?.method === 'tools/call'),
  );
const progressTimes = (t: Transcript): number[] => {
  const start = callStart(t)?.t ?? 0;
  return t.frames.filter((f) => frameMessage(f)?.method === 'notifications/progress').map((f) => (f.t - start) / 1000);
};

const PLAIN_SERVER = fileURLToPath(new URL('../../support/paced-sse-server.mjs', import.meta.url));

/** |arrival - intended offset| at the 99th percentile, both measured from the first event, in ms. */
function p99Error(got: readonly number[], offsets: readonly number[]): number {
  const errors = got.map((t, i) => Math.abs(t - (got[0] as number) - (offsets[i] as number))).sort((a, b) => a - b);
  return errors[Math.ceil(errors.length * 0.99) - 1] as number;
}

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** When each SSE event of the stream at `url` completed, in ms (performance.now), read by read. */
async function eventArrivals(url: string): Promise<number[]> {
  const response = await fetch(url);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const times: number[] = [];
  let buffered = '';
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const now = performance.now();
    buffered += decoder.decode(read.value, { stream: true });
    for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
      times.push(now);
      buffered = buffered.slice(end + 2);
    }
  }
  return times;
}

/** Runs a node script and resolves with its first stdout line and a stopper that waits for its exit. */
function startNode(script: string, args: readonly string[]): Promise<{ firstLine: string; stop: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    const stop = async (): Promise<void> => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      await gone;
    };
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const newline = out.indexOf('\n');
      if (newline >= 0) resolve({ firstLine: out.slice(0, newline), stop });
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

describe('pacing', () => {
  test('the real pacer delivers in order when the event loop is late, never before a frame is due', async () => {
    const delivered: [number, number][] = [];
    const start = performance.now();
    const done = new Promise<void>((resolve) => {
      paceInOrder(
        6,
        (i) => i * 10,
        (i) => delivered.push([i, performance.now() - start]),
        resolve,
      );
    });
    // Block the loop past several due times: the overdue frames must still go out in order.
    const until = performance.now() + 35;
    while (performance.now() < until) {}
    await done;
    expect(delivered.map(([i]) => i)).toEqual([0, 1, 2, 3, 4, 5]);
    for (const [i, t] of delivered) expect(t).toBeGreaterThanOrEqual(i * 10);
  });

  test('replays frames at their recorded offsets: p99 error within 5 ms at 1x, or within what the machine allows a plain paced server', async () => {
    const recorded = await golden('progress-100x10');
    // The replayer in its own process, as a gateway under test would have it: the recording client's
    // work in this process cannot delay the replayer's timers.
    const replay = await startCli(['replay', join(GOLDENS, 'progress-100x10.jsonl'), '--port', '0']);
    // Offsets from the stream's first notification (the constant request latency is not pacing).
    const want = progressTimes(recorded);
    const offsets = want.map((t) => t - (want[0] as number));
    // Beside it, the plainest paced server, read the same way at the same time: on a machine loaded by
    // other work every timer is late, and what the plain server shows then is the machine, not the replay.
    const plain = await startNode(PLAIN_SERVER, [offsets.join(',')]);
    try {
      // One session first, unmeasured, for each: a process that has just started compiles its code and
      // grows its heap while it serves, which says nothing about its pacing.
      await Promise.all([recordCall(replay.firstLine, scenarioOfGolden(recorded)), eventArrivals(plain.firstLine)]);
      // Five sessions of each at once, each paced on its own; the figure is the median of their p99s:
      // one session disturbed by a burst of load elsewhere does not decide it.
      const [replays, plains] = await Promise.all([
        Promise.all(Array.from({ length: 5 }, () => recordCall(replay.firstLine, scenarioOfGolden(recorded)))),
        Promise.all(Array.from({ length: 5 }, () => eventArrivals(plain.firstLine))),
      ]);
      const replayP99s = replays.map((replayed) => {
        const got = progressTimes(replayed);
        expect(got).toHaveLength(100);
        return p99Error(got, offsets);
      });
      const plainP99s = plains.map((got) => {
        expect(got).toHaveLength(100);
        return p99Error(got, offsets);
      });
      const [replayP99, plainP99] = [median(replayP99s), median(plainP99s)];
      // 5 ms on a quiet machine (a plain server's p99 is then under 1.5 ms); on a loaded one, at most twice
      // the plain server's lateness plus 2 ms. A pacer that lets lateness add up from frame to frame
      // misses both by far: 100 frames late by a little each end up late by a lot.
      const bound = Math.max(5, 2 * plainP99 + 2);
      const shown = (p99s: number[]): string => p99s.map((p) => p.toFixed(2)).join(', ');
      expect(
        replayP99,
        `p99 of each replay session: ${shown(replayP99s)} ms; of each plain paced stream: ${shown(plainP99s)} ms`,
      ).toBeLessThanOrEqual(bound);
    } finally {
      await Promise.all([replay.stop(), plain.stop()]);
    }
  });

  test('instant pace sends everything at once; a scale stretches the timeline', async () => {
    const recorded = await golden('progress-10x100');
    const instant = await createReplayServer(recorded, { pace: 'instant' });
    const slow = await createReplayServer(recorded, { pace: { scale: 1.5 } });
    try {
      const fast = progressTimes(await recordCall(instant.url, scenarioOfGolden(recorded)));
      const stretched = progressTimes(await recordCall(slow.url, scenarioOfGolden(recorded)));
      expect((fast.at(-1) as number) - (fast[0] as number)).toBeLessThan(100);
      const span = (stretched.at(-1) as number) - (stretched[0] as number);
      expect(span).toBeGreaterThan(1.5 * 900 - 100);
      expect(span).toBeLessThan(1.5 * 900 + 300);
    } finally {
      await instant.close();
      await slow.close();
    }
  });
});
