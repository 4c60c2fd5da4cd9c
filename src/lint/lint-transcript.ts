import { GoldenError } from '../errors.js';
import { eraOf, type Transcript } from '../transcript/frame.js';
import { goldenNotes } from '../transcript/golden-notes.js';
import { isLintRuleId, LINT_RULES, type LintRuleId } from './lint-rules.js';
import { lintView } from './lint-view.js';
import type { LintViolation } from './lint-violation.js';
import { checkPartialResults } from './partial-results.js';
import {
  checkAfterResult,
  checkFinalProgress,
  checkMonotonic,
  checkTokens,
  checkTotalConstant,
} from './progress-rules.js';
import {
  checkAccelBuffering,
  checkAfterClose,
  checkEventIds,
  checkKeepAlive,
  checkResumeLossless,
} from './stream-rules.js';
import { checkHeartbeat, checkRate, type TimingOptions } from './timing-rules.js';

/** Rules switched on (`true`) or off (`false`); rules not named keep their default (on). */
export type LintRuleSwitches = Readonly<Partial<Record<LintRuleId, boolean>>>;

/** Options of {@link lintTranscript}. */
export interface LintOptions extends TimingOptions {
  /**
   * Rule switches for this call or project. A golden can also switch rules off for itself with a
   * reason in its header: `notes.lint = { "rate": "why this golden is an exception" }`; an explicit
   * `true` here overrides that.
   * @default {} (every rule on)
   */
  readonly rules?: LintRuleSwitches;
}

/** A rule that was not applied, and why. */
export interface SkippedRule {
  readonly rule: LintRuleId;
  readonly why: string;
}

/** What {@link lintTranscript} found. */
export interface LintReport {
  /** Requests judged (every client request but `initialize`). */
  readonly calls: number;
  readonly violations: readonly LintViolation[];
  readonly skipped: readonly SkippedRule[];
}

/** Rule switches a golden carries in `notes.lint`: rule id → reason it is off. Throws on unknown ids. */
export function goldenRuleExceptions(transcript: Transcript): SkippedRule[] {
  const lint = goldenNotes(transcript.header).lint;
  if (lint === undefined) return [];
  return Object.entries(lint).map(([rule, why]) => {
    if (!isLintRuleId(rule)) {
      throw new GoldenError(
        'E_GOLDEN_PARSE',
        `Unknown lint rule "${rule}" in the golden's notes.lint. Expected one of: ${LINT_RULES.map((r) => r.id).join(', ')}.`,
      );
    }
    return { rule, why: `golden notes: ${why}` };
  });
}

/**
 * Judges a recorded server against the progress contract: token echo, no progress without a
 * token, monotonic progress, constant total, a final notification on success and error, nothing
 * after the result, rate, heartbeat, event ids, lossless resume and (experimental) partial results;
 * for a modern (2026-07-28) golden, `X-Accel-Buffering: no` on SSE responses, keep-alive comments
 * on a long silent stream and nothing sent after the client closed a stream, instead of the
 * resumption rules (event ids, lossless resume), which that revision removed. Pure: reads the
 * transcript only.
 *
 * @example
 * const report = lintTranscript(await readGolden('goldens/progress-default.jsonl'))
 * for (const v of report.violations) console.log(formatViolation(v))
 */
export function lintTranscript(transcript: Transcript, options: LintOptions = {}): LintReport {
  const rules = options.rules ?? {};
  for (const id of Object.keys(rules)) {
    if (!isLintRuleId(id)) {
      throw new GoldenError(
        'E_USAGE',
        `Unknown lint rule "${id}". Expected one of: ${LINT_RULES.map((r) => r.id).join(', ')}.`,
      );
    }
  }
  const skipped: SkippedRule[] = [];
  for (const exception of goldenRuleExceptions(transcript)) {
    if (rules[exception.rule] !== true) skipped.push(exception);
  }
  for (const [rule, on] of Object.entries(rules) as [LintRuleId, boolean][]) {
    if (!on && !skipped.some((s) => s.rule === rule))
      skipped.push({ rule, why: 'switched off (options, --off or the project config)' });
  }
  // Each era has its own transport rules: resumption is 2025's, the proxy header 2026-07-28's.
  const modern = eraOf(transcript.header) === 'modern';
  if (modern) {
    for (const rule of ['event-ids', 'resume-lossless'] as const) {
      if (!skipped.some((s) => s.rule === rule))
        skipped.push({
          rule,
          why: 'not in the modern era: 2026-07-28 has no SSE event ids and no Last-Event-ID resumption',
        });
    }
  }
  const view = lintView(transcript);
  const found = [
    ...checkTokens(view),
    ...checkMonotonic(view),
    ...checkTotalConstant(view),
    ...checkFinalProgress(view),
    ...checkAfterResult(view),
    ...checkRate(view, options),
    ...checkHeartbeat(view, options),
    ...checkEventIds(view),
    ...checkResumeLossless(view),
    ...checkPartialResults(view),
    ...(modern ? [...checkAccelBuffering(view), ...checkKeepAlive(view, options), ...checkAfterClose(view)] : []),
  ];
  const off = new Set(skipped.map((s) => s.rule));
  const order = (v: LintViolation): number => v.frame;
  return {
    calls: view.calls.length,
    violations: found.filter((v) => !off.has(v.rule)).sort((a, b) => order(a) - order(b)),
    skipped,
  };
}
