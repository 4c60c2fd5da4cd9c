import { relative, sep } from 'node:path';
import type { CheckReport } from '../check/vocabulary.js';
import { LINT_RULES } from '../lint/lint-rules.js';
import type { LintReport } from '../lint/lint-transcript.js';
import { formatViolation } from '../lint/lint-violation.js';
import type { JunitCase, JunitSuite } from '../report/junit.js';
import type { SarifResult, SarifRule } from '../report/sarif.js';
import type { Transcript } from '../transcript/frame.js';
import { frameMessage } from '../transcript/frame-content.js';
import { formatDifference } from '../verify/json-difference.js';
import { formatSchemaChange } from '../verify/schema-drift.js';
import type { VerifyReport } from '../verify/verify-report.js';
import { VERSION } from '../version.js';

/** The tool a SARIF log names: `mcp-golden <command>` at this version. */
export const SARIF_TOOL = (command: string) => ({ name: `mcp-golden ${command}`, version: VERSION });

/** A path as reports show it: relative to the working directory, with `/`. */
export const shown = (file: string, cwd: string): string => (relative(cwd, file) || file).split(sep).join('/');

/** One golden's failure in words: its differences, the session error, or the refused call. */
function verifyEvidence(golden: VerifyReport['goldens'][number], report: VerifyReport): string[] {
  const lines = golden.error !== undefined ? [golden.error] : [];
  if (golden.refused !== undefined) lines.push(golden.refused);
  for (const d of golden.differences) if (d.kind !== 'schema') lines.push(formatDifference(d));
  for (const change of report.schemaChanges) {
    if (change.goldens.includes(golden.file)) lines.push(`tool-schema change: ${formatSchemaChange(change)}`);
  }
  return lines;
}

/** `verify --junit`: one test case per golden, its evidence as the failure message. */
export function verifyJunit(report: VerifyReport, cwd: string): JunitSuite[] {
  const cases = report.goldens.map((golden): JunitCase => {
    const evidence = verifyEvidence(golden, report);
    return {
      name: shown(golden.file, cwd),
      classname: 'mcp-golden.verify',
      ms: golden.ms,
      ...(!golden.pass && {
        failure: { message: evidence[0] ?? 'differs', details: evidence.join('\n') },
      }),
    };
  });
  return [{ name: 'mcp-golden verify', cases, ms: report.summary.ms }];
}

const VERIFY_RULES: readonly SarifRule[] = [
  { id: 'verify/difference', description: 'what the server sends now matches the golden' },
  { id: 'verify/session', description: "the golden's session can be run against the server" },
  { id: 'verify/schema-breaking', description: 'the tool list has no change that breaks existing clients' },
  { id: 'verify/schema-compatible', description: 'the tool list is as recorded' },
];

/** `verify --sarif`: each difference located on its golden; each tool-schema change once, on the first golden that saw it. */
export function verifySarif(
  report: VerifyReport,
  cwd: string,
): { rules: readonly SarifRule[]; results: SarifResult[] } {
  const results: SarifResult[] = [];
  for (const golden of report.goldens) {
    const level = golden.pass ? 'warning' : 'error';
    if (golden.error !== undefined) {
      results.push({ ruleId: 'verify/session', level: 'error', message: golden.error, file: shown(golden.file, cwd) });
    }
    for (const d of golden.differences) {
      if (d.kind === 'schema') continue;
      results.push({ ruleId: 'verify/difference', level, message: formatDifference(d), file: shown(golden.file, cwd) });
    }
  }
  for (const change of report.schemaChanges) {
    const seen = change.goldens.map((file) => shown(file, cwd));
    results.push({
      ruleId: `verify/schema-${change.class}`,
      level: change.class === 'breaking' || report.failOn === 'any' ? 'error' : 'warning',
      message: `${formatSchemaChange(change)} (seen by ${seen.join(', ')})`,
      file: seen[0] ?? '.',
    });
  }
  return { rules: VERIFY_RULES, results };
}

/** `check --junit`: one test case per row, the evidence as the failure message; a row that does not apply is skipped. */
export function checkJunit(report: CheckReport): JunitSuite[] {
  const cases = report.results.map(
    (row): JunitCase => ({
      name: row.property,
      classname: 'mcp-golden.check',
      ...(row.verdict === 'fail' && { failure: { message: row.evidence } }),
      ...(row.verdict === 'n/a' && { skipped: row.evidence }),
      ...(row.verdict === 'inconclusive' && { skipped: `inconclusive: ${row.evidence}` }),
    }),
  );
  const eras = report.eras ? ` (client era ${report.eras.client}, upstream era ${report.eras.upstream})` : '';
  return [{ name: `mcp-golden check: ${report.gateway}${eras}`, cases, ms: report.durationMs }];
}

/** A golden linted: its path, transcript and report. */
export interface LintedGolden {
  readonly path: string;
  readonly transcript: Transcript;
  readonly report: LintReport;
}

/** The requests a lint judges (every client request but `initialize`), as `method id`, with the id as JSON. */
function lintCalls(transcript: Transcript): { name: string; id: string }[] {
  const calls: { name: string; id: string }[] = [];
  for (const frame of transcript.frames) {
    if (frame.dir !== 'client->server') continue;
    const message = frameMessage(frame);
    if (!message || typeof message.method !== 'string' || !('id' in message) || message.method === 'initialize')
      continue;
    const id = JSON.stringify(message.id);
    if (!calls.some((c) => c.id === id)) calls.push({ name: `${message.method} ${id}`, id });
  }
  return calls;
}

/** `lint --junit`: one test case per call of each golden, its violations as the failure. */
export function lintJunit(linted: readonly LintedGolden[], cwd: string): JunitSuite[] {
  return linted.map(({ path, transcript, report }) => {
    const calls = lintCalls(transcript);
    const byCall = (id: string | undefined) => report.violations.filter((v) => v.call === id);
    const cases = calls.map((call): JunitCase => {
      const broken = byCall(call.id);
      return {
        name: call.name,
        classname: shown(path, cwd),
        ...(broken.length > 0 && {
          failure: {
            message: broken.map((v) => `${v.rule}: ${v.message}`).join('; '),
            details: broken.map((v) => formatViolation(v, shown(path, cwd))).join('\n'),
          },
        }),
      };
    });
    const loose = report.violations.filter((v) => v.call === undefined || !calls.some((c) => c.id === v.call));
    if (loose.length > 0) {
      cases.push({
        name: 'the golden as a whole',
        classname: shown(path, cwd),
        failure: {
          message: loose.map((v) => `${v.rule}: ${v.message}`).join('; '),
          details: loose.map((v) => formatViolation(v, shown(path, cwd))).join('\n'),
        },
      });
    }
    return { name: `mcp-golden lint ${shown(path, cwd)}`, cases };
  });
}

/** `lint --sarif`: every violation at its golden's line, under its rule id. */
export function lintSarif(
  linted: readonly Pick<LintedGolden, 'path' | 'report'>[],
  cwd: string,
): { rules: readonly SarifRule[]; results: SarifResult[] } {
  const rules = LINT_RULES.map((r) => ({ id: r.id, description: r.summary }));
  const results = linted.flatMap(({ path, report }) =>
    report.violations.map(
      (v): SarifResult => ({
        ruleId: v.rule,
        level: 'error',
        message: `${v.message} Expected ${v.expected}; got ${v.got}. Fix: ${v.fix}`,
        file: shown(path, cwd),
        line: v.line,
      }),
    ),
  );
  return { rules, results };
}
