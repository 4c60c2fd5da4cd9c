import { readFile } from 'node:fs/promises';
import { GoldenError, isGoldenError } from '../errors.js';
import {
  LINT_REPORT_FORMAT,
  type LintJsonReport,
  lintSummaryLine,
  mergeLintReports,
} from '../lint/lint-json-report.js';
import { readGolden } from '../store/golden-file.js';
import { mergeVerifyReports } from '../verify/merge-verify-reports.js';
import { checkShardSet, type NamedReport } from '../verify/shard-reports.js';
import { formatReportTail, VERIFY_REPORT_FORMAT, type VerifyReport } from '../verify/verify-report.js';
import { pathIn } from './cli-io.js';
import { defineCommand } from './command-spec.js';
import { REPORT_OPTIONS, reportFilesOf, writeLintOutputs, writeVerifyOutputs } from './report-outputs.js';

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

/** `mcp-golden merge-reports`. */
export const mergeReportsCommand = defineCommand({
  name: 'merge-reports',
  summary: 'join the --json reports of a sharded verify or lint run into one report',
  operands: '<report.json>...',
  minOperands: 1,
  missing: 'report',
  description: `Reads the --json reports that \`verify --shard i/n\` or \`lint --shard i/n\` wrote on each CI runner
(every shard of one split exactly once, of one command) and writes the report one unsharded run would
have written: the goldens in the order given, each tool-schema change once, the totals. --html and
lint's --junit read the goldens from the paths in the reports, so run it in the checkout.`,
  options: {
    json: { ...REPORT_OPTIONS.json, description: 'write the merged report as JSON, as one run writes it' },
    junit: {
      ...REPORT_OPTIONS.junit,
      description: 'write a JUnit XML report: one test case per golden (lint: per call of each golden)',
    },
    html: { ...REPORT_OPTIONS.html, description: `verify only: ${REPORT_OPTIONS.html.description}` },
    sarif: { ...REPORT_OPTIONS.sarif, description: 'write a SARIF 2.1.0 log of every difference or violation' },
  },
  epilog: `Exit 0 when every shard passed, 1 when any failed, 2 on a usage error (a report missing, given twice,
of another command or format).`,
  async run(args, io) {
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
      io.stdout.write(`${head}\n${lintSummaryLine(report)}\n`);
      await writeLintOutputs(report, files, io, async (path) => {
        const from = reports.find((r) => r.report.goldens.some((g) => g.path === path))?.name;
        return readGolden(pathIn(io, path)).catch((error: unknown) => {
          throw new GoldenError(
            'E_USAGE',
            `Cannot read golden "${path}" (linted in "${from}") for --junit, which lists each golden's calls: ${isGoldenError(error) ? error.message : String(error)} Run merge-reports in the checkout the shards linted.`,
          );
        });
      });
      return report.violations === 0 ? 0 : 1;
    }
    const report = mergeVerifyReports(
      set.reports.map(({ name, report: data }) => ({ name, report: data as unknown as VerifyReport })),
      io.cwd,
    );
    io.stdout.write(`${head}\n`);
    for (const line of formatReportTail(report)) io.stdout.write(`${line}\n`);
    await writeVerifyOutputs(report, files, io);
    return report.pass ? 0 : 1;
  },
});
