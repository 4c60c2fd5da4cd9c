import type { LintReport } from './lint-transcript.js';
import { formatViolation } from './lint-violation.js';

/** The format of the `lint --json` report this version writes (and `merge-reports` reads). */
export const LINT_REPORT_FORMAT = 'mcp-golden-lint/1';

/** A golden linted, as the JSON report lists it: its path as shown, its place among the goldens given, its report. */
export type LintedEntry = { readonly path: string; readonly position: number } & LintReport;

/** What `lint --json FILE` writes. */
export interface LintJsonReport {
  readonly format: typeof LINT_REPORT_FORMAT;
  readonly command: 'lint';
  /** Part `index` of `count` (`--shard i/n`; 1/1 without), out of `given` goldens in all. */
  readonly shard: { readonly index: number; readonly count: number; readonly given: number };
  readonly goldens: readonly LintedEntry[];
  /** Violations in all the goldens listed. */
  readonly violations: number;
}

/** The JSON report of a lint run over `goldens` (in the order given) as part `shard` of the run. */
export function buildLintJsonReport(
  goldens: readonly LintedEntry[],
  shard: LintJsonReport['shard'] = { index: 1, count: 1, given: goldens.length },
): LintJsonReport {
  return {
    format: LINT_REPORT_FORMAT,
    command: 'lint',
    shard,
    goldens,
    violations: goldens.reduce((sum, g) => sum + g.violations.length, 0),
  };
}

/**
 * Joins the reports of every shard of one `lint --shard i/n` run (checked to be each shard once)
 * into the report one unsharded run would have written: the goldens in the order given.
 */
export function mergeLintReports(reports: readonly LintJsonReport[]): LintJsonReport {
  const goldens = reports.flatMap((r) => r.goldens).sort((a, b) => a.position - b.position);
  return buildLintJsonReport(goldens, { index: 1, count: 1, given: reports[0]?.shard.given ?? goldens.length });
}

/** The last line of a lint run: every golden follows the contract, or how many violations in how many goldens. */
export function lintSummaryLine(report: LintJsonReport): string {
  const n = report.goldens.length;
  const total = report.violations;
  return total === 0
    ? `[mcp-golden] lint: ${n === 1 ? '1 golden follows' : `${n} goldens follow`} the progress contract`
    : `[mcp-golden] lint: ${total} violation${total === 1 ? '' : 's'} in ${report.goldens.filter((g) => g.violations.length > 0).length} of ${n} goldens`;
}

/**
 * A linted golden as `lint` prints it: its verdict line (`goldens/x.jsonl: ok (4 requests)`), each
 * violation, and the rules switched off with why.
 */
export function formatLintedGolden({ path, violations, calls, skipped }: LintedEntry): string[] {
  const verdict =
    violations.length === 0 ? 'ok' : `${violations.length} violation${violations.length === 1 ? '' : 's'}`;
  const lines = [`${path}: ${verdict} (${calls} request${calls === 1 ? '' : 's'})`];
  for (const v of violations) lines.push(formatViolation(v, path));
  // Rules off for one reason share a line: a modern golden has two, for one reason.
  const reasons = new Map<string, string[]>();
  for (const s of skipped) reasons.set(s.why, [...(reasons.get(s.why) ?? []), s.rule]);
  for (const [why, rules] of reasons) lines.push(`  ${rules.join(', ')} off: ${why}`);
  return lines;
}
