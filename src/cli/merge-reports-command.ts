import { defineCommand } from './command-spec.js';
import { REPORT_OPTIONS } from './report-options.js';

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
    // The implementation loads here, after parsing: `--help` and usage errors load none of it.
    const { runMergeReports } = await import('./merge-reports-implementation.js');
    return runMergeReports(args, io);
  },
});
