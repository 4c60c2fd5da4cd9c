/**
 * How far a timing figure may stray from its reference and still count as the same: a figure whose
 * reference value is `R` ms may differ from it by `max(absMs, relGap × R)`. The compare judges each
 * frame's offset from its request; the streaming checks judge each gap between consecutive progress
 * notifications, and skip reference gaps shorter than `minGapMs`.
 */
export interface TimingTolerance {
  /** A figure may differ from its reference by this fraction of it... @default 0.5 */
  readonly relGap?: number;
  /** ...or by this many ms, whichever is larger. @default 20 */
  readonly absMs?: number;
  /** Reference gaps shorter than this are not judged (too short to tell from jitter). @default 20 */
  readonly minGapMs?: number;
}

/** The defaults of every {@link TimingTolerance} field. */
export const DEFAULT_TIMING_TOLERANCE: Required<TimingTolerance> = { relGap: 0.5, absMs: 20, minGapMs: 20 };

/** A tolerance with every field filled in from the defaults. */
export function resolveTolerance(tolerance: TimingTolerance = {}): Required<TimingTolerance> {
  return { ...DEFAULT_TIMING_TOLERANCE, ...tolerance };
}

/** The allowed difference for a figure whose reference value is `reference` ms. */
export function allowedDrift(tolerance: Required<TimingTolerance>, reference: number): number {
  return Math.max(tolerance.absMs, tolerance.relGap * reference);
}
