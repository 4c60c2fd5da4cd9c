import type { Call } from '../transcript/read-calls.js';
import { resolveTolerance, type TimingTolerance } from '../transcript/timing-tolerance.js';

/**
 * Whether progress still streams over the call as it did in the golden. Only one shape is a
 * difference: the golden spread two or more notifications over the call, and now every
 * notification arrives back to back with the result (a buffer introduced in the server). Gaps that
 * are merely longer or shorter, or jitter on a loaded machine, are not judged: a faithful server
 * never fails this.
 *
 * Uses the check's tolerance rules: a notification is "with the result" when it arrives within
 * `max(absMs, 10% of the golden's spread)` of it (a loaded machine delays the result and the
 * notifications alike); the golden counts as spread when at least two of its notifications came
 * more than `max(minGapMs, 4 x that window)` before its result.
 *
 * @returns the sentence that describes the regression, or `undefined` when the shape is kept.
 */
export function progressShapeChange(golden: Call, live: Call, tolerance: TimingTolerance = {}): string | undefined {
  const { absMs, minGapMs } = resolveTolerance(tolerance);
  const goldenAt = golden.response?.atMs;
  const liveAt = live.response?.atMs;
  if (goldenAt === undefined || liveAt === undefined || live.progress.length < 2) return undefined;
  const before = golden.progress.filter((p) => p.atMs <= goldenAt);
  if (before.length === 0) return undefined;
  const spread = goldenAt - Math.min(...before.map((p) => p.atMs));
  const window = Math.max(absMs, 0.1 * spread);
  const spreadOut = before.filter((p) => goldenAt - p.atMs > Math.max(minGapMs, 4 * window));
  if (spreadOut.length < 2) return undefined;
  const bunched = live.progress.filter((p) => Math.abs(liveAt - p.atMs) <= window);
  if (bunched.length < live.progress.length) return undefined;
  const within = Math.max(0, ...live.progress.map((p) => Math.abs(liveAt - p.atMs)));
  return `progress no longer streams: ${bunched.length} of ${live.progress.length} notifications within ${Math.ceil(within)} ms of the result; the golden spread them over ${Math.round(spread)} ms`;
}
