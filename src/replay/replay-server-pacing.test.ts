import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { startCli } from '../../test/support/cli.js';
import { recordCall } from '../record/record-call.js';
import { scenarioOfGolden } from '../record/scenario-of-golden.js';
import { readGolden } from '../store/golden-file.js';
import type { Frame, Transcript } from '../transcript/frame.js';
import { frameMessage } from '../transcript/frame-content.js';
import { paceInOrder } from './pacing.js';
import { createReplayServer } from './replay-server.js';

// The real-time figures of the replay server. This file runs alone, after every other file (the
// 'timing' project in vitest.config.ts), so it measures the product and not the load of other
// test files on a 2-core machine; the rest of the replay server's tests run in parallel with the suite.

const GOLDENS = fileURLToPath(new URL('../../goldens', import.meta.url));
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

  test('replays frames at their recorded offsets: p99 error within 5 ms at 1x', async () => {
    const recorded = await golden('progress-100x10');
    // The replayer in its own process, as a gateway under test would have it: the recording client's
    // work in this process cannot delay the replayer's timers.
    const replay = await startCli(['replay', join(GOLDENS, 'progress-100x10.jsonl'), '--port', '0']);
    try {
      // Offsets from the stream's first notification (the constant request latency is not pacing).
      // Five sessions replay at once, each paced on its own; the figure is the median of their p99s:
      // one session disturbed by a burst of load elsewhere on a shared 2-core machine does not decide it.
      const want = progressTimes(recorded);
      const replays = await Promise.all(
        Array.from({ length: 5 }, () => recordCall(replay.firstLine, scenarioOfGolden(recorded))),
      );
      const p99s = replays.map((replayed) => {
        const got = progressTimes(replayed);
        expect(got).toHaveLength(100);
        const errors = got
          .map((t, i) => Math.abs(t - (got[0] as number) - ((want[i] as number) - (want[0] as number))))
          .sort((a, b) => a - b);
        return errors[98] as number;
      });
      p99s.sort((a, b) => a - b);
      expect(p99s[2], `p99 of each session: ${p99s.map((p) => p.toFixed(2)).join(', ')} ms`).toBeLessThanOrEqual(5);
    } finally {
      await replay.stop();
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
