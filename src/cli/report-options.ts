import type { OptionSpec } from './command-spec.js';

/** The report files a run (or `merge-reports`) writes, as given on the command line. */
export interface ReportFiles {
  readonly json?: string | undefined;
  readonly junit?: string | undefined;
  readonly html?: string | undefined;
  readonly sarif?: string | undefined;
}

/** `--json`, `--junit`, `--html`, `--sarif` as `verify` and `merge-reports` declare them. */
export const REPORT_OPTIONS = {
  json: { type: 'string', value: 'FILE', description: 'write the verdict as JSON' },
  junit: { type: 'string', value: 'FILE', description: 'write a JUnit XML report: one test case per golden' },
  html: {
    type: 'string',
    value: 'FILE',
    description: "write one self-contained HTML page: each golden's calls on a shared time axis, with the diff",
  },
  sarif: {
    type: 'string',
    value: 'FILE',
    description: 'write a SARIF 2.1.0 log: each difference on its golden, each tool-schema change once',
  },
} as const satisfies Record<string, OptionSpec>;

/** The report files named by the options above. */
export function reportFilesOf(args: { string(name: string): string | undefined }): ReportFiles {
  return {
    json: args.string('json'),
    junit: args.string('junit'),
    html: args.string('html'),
    sarif: args.string('sarif'),
  };
}
