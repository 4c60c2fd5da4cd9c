import type { LintView } from './lint-view.js';
import type { LintViolation } from './lint-violation.js';
import { violation } from './lint-violation.js';

/** Tolerances of the timing rules. */
export interface TimingOptions {
  /** `rate`: shortest accepted average interval between notifications, in ms. @default 100 */
  readonly minIntervalMs?: number;
  /** `rate`: how many consecutive intervals are averaged (a burst shorter than this is fine). @default 5 */
  readonly rateWindow?: number;
  /** `heartbeat`: longest accepted silence while a call with a progress token is open, in ms. @default 7500 */
  readonly maxSilenceMs?: number;
  /**
   * `keep-alive` (modern era): longest accepted silence on an open SSE response, comments
   * included, in ms. @default 20000 (the SDK v2's 15000 ms keep-alive, with a third more for late timers)
   */
  readonly keepAliveMs?: number;
}

/** Defaults of {@link TimingOptions}: the heartbeat limit tolerates the reference tool's longest step (5 s). */
export const DEFAULT_TIMING: Required<TimingOptions> = {
  minIntervalMs: 100,
  rateWindow: 5,
  maxSilenceMs: 7500,
  keepAliveMs: 20_000,
};

/**
 * `rate`: no run of `rateWindow` consecutive intervals whose average is below `minIntervalMs`.
 * Intervals ending at a replayed event (the batch sent after a `Last-Event-ID` reconnect) are not
 * judged: a replay is a catch-up, not a burst.
 */
export function checkRate(view: LintView, options: TimingOptions = {}): LintViolation[] {
  const { minIntervalMs, rateWindow } = { ...DEFAULT_TIMING, ...options };
  const out: LintViolation[] = [];
  for (const call of view.calls) {
    const live = call.progress.filter((p) => !p.replayed);
    // Runs of live intervals, broken wherever a replayed batch sits between two live events.
    const intervals: { from: number; to: number }[] = [];
    for (let i = 1; i < live.length; i++) {
      const a = live[i - 1] as (typeof live)[number];
      const b = live[i] as (typeof live)[number];
      const replayBetween = call.progress.some((p) => p.replayed && p.order > a.order && p.order < b.order);
      if (!replayBetween) intervals.push({ from: i - 1, to: i });
    }
    for (let start = 0; start + rateWindow <= intervals.length; start++) {
      const run = intervals.slice(start, start + rateWindow);
      const contiguous = run.every((iv, k) => k === 0 || iv.from === (run[k - 1] as typeof iv).to);
      if (!contiguous) continue;
      const first = live[(run[0] as (typeof run)[number]).from] as (typeof live)[number];
      const last = live[(run.at(-1) as (typeof run)[number]).to] as (typeof live)[number];
      const average = (last.t - first.t) / 1000 / rateWindow;
      if (average >= minIntervalMs) continue;
      const fast = countFast(live, minIntervalMs);
      out.push(
        violation(
          view,
          'rate',
          { call, event: last },
          `${rateWindow + 1} notifications arrived within ${((last.t - first.t) / 1000).toFixed(1)} ms (lines ${first.order + 2}-${last.order + 2}); ${fast} of ${live.length - 1} intervals in the call were shorter than ${minIntervalMs} ms`,
          `an average interval of at least ${minIntervalMs} ms (--min-interval-ms)`,
          `${average.toFixed(1)} ms`,
        ),
      );
      break;
    }
  }
  return out;
}

function countFast(live: readonly { t: number }[], minIntervalMs: number): number {
  let fast = 0;
  for (const [i, { t }] of live.entries()) {
    const before = live[i - 1];
    if (before && (t - before.t) / 1000 < minIntervalMs) fast++;
  }
  return fast;
}

/**
 * `heartbeat`: while a call that carried a progress token is open (from its request until its
 * result, its cancellation, or the end of the recording), no silence longer than `maxSilenceMs`.
 */
export function checkHeartbeat(view: LintView, options: TimingOptions = {}): LintViolation[] {
  const { maxSilenceMs } = { ...DEFAULT_TIMING, ...options };
  const out: LintViolation[] = [];
  const endT = view.transcript.frames.at(-1)?.t ?? 0;
  for (const call of view.calls) {
    if (!call.hasToken) continue;
    // The cancel's own frame time: atMs counts from the call's t, in whole microseconds.
    const cancelledT =
      call.cancelAtMs === undefined ? Number.POSITIVE_INFINITY : call.t + Math.round(call.cancelAtMs * 1000);
    const stopT = Math.min(call.response?.t ?? endT, cancelledT);
    const marks = [call.t, ...call.progress.map((p) => p.t).filter((t) => t < stopT), stopT];
    let longest = 0;
    let at = 0;
    for (let i = 1; i < marks.length; i++) {
      const gap = (marks[i] as number) - (marks[i - 1] as number);
      if (gap > longest) {
        longest = gap;
        at = i;
      }
    }
    if (longest / 1000 <= maxSilenceMs) continue;
    const fromT = marks[at - 1] as number;
    const event =
      call.progress.find((p) => p.t === marks[at]) ?? (call.response?.t === marks[at] ? call.response : undefined);
    out.push(
      violation(
        view,
        'heartbeat',
        { call, event, order: call.order },
        `the server was silent for ${(longest / 1000).toFixed(1)} ms while the call was open (from ${(fromT / 1000).toFixed(1)} ms)`,
        `a notification at least every ${maxSilenceMs} ms (--max-silence-ms)`,
        `${(longest / 1000).toFixed(1)} ms of silence`,
      ),
    );
  }
  return out;
}
