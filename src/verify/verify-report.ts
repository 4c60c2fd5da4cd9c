import { relative } from 'node:path';
import { type Difference, formatDifference } from './json-difference.js';
import { formatSchemaChange, type SchemaChange } from './schema-drift.js';
import type { Shard } from './shard-goldens.js';
import type { GoldenVerdict } from './verify-goldens.js';

/** A schema change with the goldens whose listing showed it (the same change is reported once). */
export interface ReportedSchemaChange extends SchemaChange {
  readonly goldens: readonly string[];
}

/** The part of a run a report covers: shard `index` of `count`, out of `given` goldens in all. */
export interface ReportShard extends Shard {
  /** How many goldens the whole run was given (every shard together). */
  readonly given: number;
}

/** The format of the `verify --json` report this version writes (and `merge-reports` reads). */
export const VERIFY_REPORT_FORMAT = 'mcp-golden-verify/1';

/** The verdict of a whole `verify` run as data (what `--json FILE` writes). */
export interface VerifyReport {
  readonly format: typeof VERIFY_REPORT_FORMAT;
  readonly command: 'verify';
  /** `{index: 1, count: 1}` unless run with `--shard`; `merge-reports` joins the shards into one. */
  readonly shard: ReportShard;
  /** The working directory the goldens were found from (`merge-reports` reads them relative to its own). */
  readonly cwd: string;
  readonly pass: boolean;
  readonly failOn: 'any' | 'breaking';
  readonly update: boolean;
  readonly summary: {
    readonly goldens: number;
    readonly passed: number;
    readonly failed: number;
    readonly rewritten: number;
    readonly ms: number;
  };
  readonly goldens: readonly {
    readonly file: string;
    /** The golden's place (1-based) among all the goldens given, every shard together. */
    readonly position: number;
    readonly pass: boolean;
    readonly ms: number;
    readonly rewritten: boolean;
    readonly error?: string;
    /** The server now refuses the call (tool removed, arguments invalid); never rewritten. */
    readonly refused?: string;
    readonly volatile: GoldenVerdict['volatile'];
    readonly differences: readonly Difference[];
  }[];
  readonly schemaChanges: readonly ReportedSchemaChange[];
}

/** The schema changes of every golden, each distinct change once with the goldens that showed it. */
export function collectSchemaChanges(verdicts: readonly GoldenVerdict[]): ReportedSchemaChange[] {
  const byKey = new Map<string, { change: SchemaChange; goldens: string[] }>();
  for (const verdict of verdicts) {
    for (const change of verdict.schemaChanges) {
      const key = JSON.stringify([change.list, change.item, change.argument, change.change, change.class]);
      const entry = byKey.get(key) ?? { change, goldens: [] };
      entry.goldens.push(verdict.file);
      byKey.set(key, entry);
    }
  }
  return [...byKey.values()].map(({ change, goldens }) => ({ ...change, goldens }));
}

/** How a run was made: its settings, its time, and which part of the goldens given it judged. */
export interface VerifyRun {
  readonly failOn: 'any' | 'breaking';
  readonly update: boolean;
  readonly ms: number;
  readonly cwd: string;
  /** @default the whole run: shard 1/1, the verdicts at positions 1..n */
  readonly shard?: ReportShard;
  /** Each verdict's place among all the goldens given. @default 1..n */
  readonly positions?: readonly number[];
}

/** Builds the data verdict of a run. */
export function buildVerifyReport(verdicts: readonly GoldenVerdict[], options: VerifyRun): VerifyReport {
  const passed = verdicts.filter((v) => v.pass).length;
  return {
    format: VERIFY_REPORT_FORMAT,
    command: 'verify',
    shard: options.shard ?? { index: 1, count: 1, given: verdicts.length },
    cwd: options.cwd,
    pass: passed === verdicts.length,
    failOn: options.failOn,
    update: options.update,
    summary: {
      goldens: verdicts.length,
      passed,
      failed: verdicts.length - passed,
      rewritten: verdicts.filter((v) => v.rewritten).length,
      ms: Math.round(options.ms),
    },
    goldens: verdicts.map((v, i) => ({
      file: v.file,
      position: options.positions?.[i] ?? i + 1,
      pass: v.pass,
      ms: v.ms,
      rewritten: v.rewritten,
      ...(v.error !== undefined && { error: v.error }),
      ...(v.refused !== undefined && { refused: v.refused }),
      volatile: v.volatile,
      differences: v.differences.map((d) => ({ ...d })),
    })),
    schemaChanges: collectSchemaChanges(verdicts),
  };
}

/** A golden's path as the lines show it: relative to the run's working directory. */
const shownFrom =
  (cwd: string) =>
  (file: string): string =>
    relative(cwd, file) || file;

/** One line per golden as it finishes, its path relative to `cwd`: `PASS  goldens/search.jsonl  312 ms`. */
export function formatVerdictLine(verdict: GoldenVerdict, cwd: string): string {
  const shown = shownFrom(cwd);
  const status = verdict.rewritten ? 'UPDATED' : verdict.pass ? 'PASS' : 'FAIL';
  const notes = [
    verdict.rewritten && 'rewritten with what the server sent now',
    verdict.refused,
    verdict.schemaChanges.length > 0 && 'tool-schema changes, listed once below',
  ].filter(Boolean);
  return `${status.padEnd(7)} ${shown(verdict.file)}  ${verdict.ms} ms${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
}

/** The tool-schema drift of the run, once: each change with how many of the goldens that listed tools saw it. */
function formatDrift(report: VerifyReport): string[] {
  if (report.schemaChanges.length === 0) return [];
  const shown = shownFrom(report.cwd);
  const seen = new Set(report.schemaChanges.flatMap((c) => c.goldens));
  const names = [...seen].map(shown);
  const lines = [
    '',
    `Tool-schema changes: the server's drift, reported once (seen by ${seen.size} golden${seen.size === 1 ? '' : 's'}: ${names.join(', ')}):`,
  ];
  for (const change of report.schemaChanges) {
    const some = change.goldens.length < seen.size ? ` (only ${change.goldens.map(shown).join(', ')})` : '';
    lines.push(`  ${formatSchemaChange(change)}${some}`);
  }
  return lines;
}

/** After `--update`: which goldens were rewritten, and which differ but were not, and why. */
function formatUpdated(report: VerifyReport): string[] {
  const shown = shownFrom(report.cwd);
  const rewritten = report.goldens.filter((g) => g.rewritten);
  const lines = [
    '',
    rewritten.length === 0
      ? 'Updated no golden.'
      : `Updated ${rewritten.length} golden${rewritten.length === 1 ? '' : 's'} (review the change with \`git diff\` and commit): ${rewritten.map((g) => shown(g.file)).join(', ')}`,
  ];
  for (const golden of report.goldens.filter((g) => g.refused !== undefined)) {
    lines.push(
      `Not updated: ${shown(golden.file)}: ${golden.refused} (breaking drift). Delete the golden if that is intended, or re-record it with "expectError": true to keep the error.`,
    );
  }
  for (const golden of report.goldens.filter((g) => g.error !== undefined)) {
    lines.push(`Not updated: ${shown(golden.file)}: its session could not be run (above).`);
  }
  return lines;
}

/** How `formatReportTail` writes: for a run, or for `merge-reports` of a sharded run. */
export interface ReportTailOptions {
  /** @default 20 */
  readonly maxDifferences?: number;
  /** The report joins shards: what to do next names the shards' verify, not this command. @default false */
  readonly merged?: boolean;
}

/**
 * The lines after the per-golden lines: each differing golden with its differences (up to
 * `maxDifferences`; tool-schema changes are listed once for the run instead), the tool-schema
 * drift, what `--update` rewrote, the summary line and what to do next; paths relative to the
 * run's `cwd`.
 */
export function formatReportTail(report: VerifyReport, options: ReportTailOptions = {}): string[] {
  const { maxDifferences = 20, merged = false } = options;
  const shown = shownFrom(report.cwd);
  const lines: string[] = [];
  // A server that cannot start fails every golden the same way: its stderr is shown once, for the first.
  const firstWithError = new Map<string, string>();
  for (const golden of report.goldens) {
    const own = golden.differences.filter((d) => d.kind !== 'schema');
    if (own.length === 0 || golden.rewritten) continue;
    lines.push('', `${golden.pass ? 'differs (passes under --fail-on breaking)' : 'FAIL'} ${shown(golden.file)}`);
    const error = golden.error?.replaceAll(golden.file, '<golden>');
    const first = error === undefined ? undefined : firstWithError.get(error);
    if (first !== undefined) {
      lines.push(`  session: could not be run, with the same error as ${shown(first)} above`);
      continue;
    }
    if (error !== undefined) firstWithError.set(error, golden.file);
    for (const d of own.slice(0, maxDifferences)) lines.push(`  ${formatDifference(d)}`);
    if (own.length > maxDifferences) {
      lines.push(`  … and ${own.length - maxDifferences} more differences (all of them are in --json)`);
    }
    if (golden.differences.length > own.length) lines.push('  and the tool-schema changes listed once below');
  }
  lines.push(...formatDrift(report));
  if (report.update) lines.push(...formatUpdated(report));
  const s = report.summary;
  const rewritten = report.update ? `, ${s.rewritten} rewritten` : '';
  lines.push(
    '',
    `${report.pass ? 'PASS' : 'FAIL'}: ${s.goldens} golden${s.goldens === 1 ? '' : 's'}, ${s.passed} passed, ${s.failed} failed${rewritten} in ${(s.ms / 1000).toFixed(1)} s`,
  );
  const failed = report.goldens.filter((g) => !g.pass);
  if (!report.pass && !report.update && failed.some((g) => g.error === undefined)) {
    lines.push(
      merged
        ? "If the changes are intended, rewrite the goldens that differ: run each failing shard's verify command again with --update (or verify every golden with --update on one machine) and commit what it rewrites."
        : 'If the changes are intended, rewrite the goldens that differ with the same command and --update.',
    );
  } else if (failed.length > 0 && failed.every((g) => g.error !== undefined)) {
    // --update rewrites from a live session: with none to be had, it would rewrite nothing.
    lines.push(
      merged
        ? "No session could be run, so nothing was compared: fix the error above and run the failing shards' verify commands again."
        : 'No session could be run, so nothing was compared: fix the error above and run the same command again.',
    );
  }
  return lines;
}
