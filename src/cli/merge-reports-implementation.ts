import { readFile } from 'node:fs/promises';
import { GoldenError, isGoldenError } from '../errors.js';
import {
  formatLintedGolden,
  LINT_REPORT_FORMAT,
  type LintJsonReport,
  lintSummaryLine,
  mergeLintReports,
} from '../lint/lint-json-report.js';
import { readGolden } from '../store/golden-file.js';
import type { Transcript } from '../transcript/frame.js';
import { mergeVerifyReports } from '../verify/merge-verify-reports.js';
import { checkShardSet, type NamedReport } from '../verify/shard-reports.js';
import { formatReportTail, VERIFY_REPORT_FORMAT, type VerifyReport } from '../verify/verify-report.js';
import { type CliIo, pathIn, shownPath } from './cli-io.js';
import type { ParsedArgs } from './command-spec.js';
import { reportFilesOf } from './report-options.js';
import { writeLintOutputs, writeVerifyOutputs } from './report-outputs.js';

/**
 * What `mcp-golden merge-reports` runs, loaded by its declaration (merge-reports-command.ts) only
 * once its arguments parse: `--help` and usage errors load none of it.
 */
const FORMATS = { verify: VERIFY_REPORT_FORMAT, lint: LINT_REPORT_FORMAT };

/** Reads one shard's `--json` report; a missing file or one that is not JSON is a usage error naming it. */
async function readReport(name: string, cwd: string): Promise<NamedReport> {
  const text = await readFile(pathIn({ cwd }, name), 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new GoldenError(
      'E_USAGE',
      `Cannot read report "${name}": ${error.code === 'ENOENT' ? 'no such file' : error.message}. Name the files that \`mcp-golden verify --shard i/n --json FILE\` (or lint) wrote, one per shard.`,
    );
  });
  try {
    return { name, data: JSON.parse(text) };
  } catch (error) {
    throw new GoldenError(
      'E_USAGE',
      `Cannot read report "${name}": it is not JSON (${(error as Error).message}). Name the files that \`mcp-golden verify --shard i/n --json FILE\` (or lint) wrote, one per shard.`,
    );
  }
}

/** Why a golden a report names could not be read: a missing file is said plainly (recording it again is not the fix here). */
function whyUnreadable(error: unknown, path: string): string {
  if (isGoldenError(error) && error.code === 'E_GOLDEN_MISSING') return `there is no file "${path}".`;
  return isGoldenError(error) ? error.message : String(error);
}

/** Joins the shards' reports named by the operands and writes the files asked for. */
export async function runMergeReports(args: ParsedArgs<string>, io: CliIo): Promise<number> {
  const named: NamedReport[] = [];
  for (const name of args.operands) named.push(await readReport(name, io.cwd));
  const set = checkShardSet(named, FORMATS);
  const files = reportFilesOf(args);
  const count = set.reports.length;
  const head = `[mcp-golden] merge-reports: ${count} ${set.command} report${count === 1 ? '' : 's'}, shards 1..${count} of ${count}`;
  if (set.command === 'lint') {
    if (files.html !== undefined) {
      throw new GoldenError(
        'E_USAGE',
        '--html joins verify reports only: lint writes no HTML page. Drop --html, or see a golden with `mcp-golden inspect --html`.',
      );
    }
    const reports = set.reports.map(({ name, report: data }) => ({
      name,
      report: data as unknown as LintJsonReport,
    }));
    const report = mergeLintReports(reports.map((r) => r.report));
    io.stdout.write(`${head}\n`);
    for (const golden of report.goldens.filter((g) => g.violations.length > 0)) {
      for (const line of formatLintedGolden(golden)) io.stdout.write(`${line}\n`);
    }
    io.stdout.write(`${lintSummaryLine(report)}\n`);
    await writeLintOutputs(report, files, io, async (path) => {
      const from = reports.find((r) => r.report.goldens.some((g) => g.path === path))?.name;
      return readGolden(pathIn(io, path)).catch((error: unknown) => {
        throw new GoldenError(
          'E_USAGE',
          `Cannot read golden "${path}" (linted in "${from}") for --junit, which lists each golden's calls: ${whyUnreadable(error, pathIn(io, path))} Run merge-reports in the checkout the shards linted.`,
        );
      });
    });
    return report.violations === 0 ? 0 : 1;
  }
  const reports = set.reports.map(({ name, report: data }) => ({ name, report: data as unknown as VerifyReport }));
  const report = mergeVerifyReports(reports, io.cwd);
  // Every golden is read before any file is written: a page without them would pass for a whole one.
  const goldens = files.html === undefined ? new Map() : await readVerified(report, reports, io.cwd);
  io.stdout.write(`${head}\n`);
  for (const line of formatReportTail(report, { merged: true })) io.stdout.write(`${line}\n`);
  await writeVerifyOutputs(report, files, io, undefined, async (file) => goldens.get(file));
  return report.pass ? 0 : 1;
}

/**
 * The goldens the merged `report` lists, read from its paths (each report's, moved to `cwd`) for
 * `--html`; one that cannot be read is a usage error naming it and the report that verified it.
 */
async function readVerified(
  report: VerifyReport,
  reports: readonly { readonly name: string; readonly report: VerifyReport }[],
  cwd: string,
): Promise<Map<string, Transcript>> {
  const goldens = new Map<string, Transcript>();
  for (const { file, position } of report.goldens) {
    const golden = await readGolden(file).catch((error: unknown) => {
      const from = reports.find((r) => r.report.goldens.some((g) => g.position === position))?.name;
      throw new GoldenError(
        'E_USAGE',
        `Cannot read golden "${shownPath({ cwd }, file)}" (verified in "${from}") for --html, which draws each golden's calls: ${whyUnreadable(error, file)} Run merge-reports in the checkout the shards verified, or drop --html.`,
      );
    });
    goldens.set(file, golden);
  }
  return goldens;
}
