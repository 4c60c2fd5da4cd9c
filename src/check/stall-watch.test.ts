import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { checkThrough } from '../../test/support/check-through-fault.js';
import { watchStalls } from './stall-watch.js';

const ROW = 'progress streams live (50 ms steps)';

describe('watchStalls', () => {
  test('measures the longest time the process ran nothing while the work ran', async () => {
    const { value, longestStallMs } = await watchStalls(async () => {
      await sleep(30);
      const until = performance.now() + 70;
      while (performance.now() < until) {
        // the event loop is blocked for 70 ms
      }
      await sleep(30);
      return 'done';
    });
    expect(value).toBe('done');
    expect(longestStallMs).toBeGreaterThanOrEqual(60);
  });
});

// The fault proxy runs in this process: when it blocks its event loop on a notification, the check's
// own timing stalls with it, as on a loaded machine.
describe('the spacing row when the check itself stalls', () => {
  test('a look the check stalled through does not count: it looks again, and a faithful path passes', async () => {
    const report = await checkThrough('block-loop-twice', { only: [ROW] });
    const row = report.results.find((r) => r.property === ROW);
    expect(row?.verdict, row?.evidence).toBe('pass');
  }, 60_000);

  test('when every look stalled, the failure says so and by how much', async () => {
    const report = await checkThrough('block-loop', { only: [ROW] });
    const row = report.results.find((r) => r.property === ROW);
    expect(row?.verdict).toBe('fail');
    expect(row?.evidence).toMatch(
      /; the check's own process stalled \d+ ms during this call \(a loaded machine\): run the check again on a quieter one$/,
    );
    expect(row?.numbers.checkStallMs).toBeGreaterThanOrEqual(60);
  }, 60_000);
});
