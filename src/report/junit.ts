import { escapeXml } from './xml-text.js';

/** One test case of a JUnit report: a golden, a row of the check, or a call. */
export interface JunitCase {
  readonly name: string;
  /** The group it belongs to, as CI systems show it (a golden's path, the gateway). */
  readonly classname: string;
  /** How long it took, in ms. @default 0 */
  readonly ms?: number;
  /** Present when it failed: a one-line message and the whole evidence. */
  readonly failure?: { readonly message: string; readonly details?: string };
  /** Present when it was not judged (a check row that does not apply), with why. */
  readonly skipped?: string;
}

/** One suite of a JUnit report: one command's run. */
export interface JunitSuite {
  readonly name: string;
  readonly cases: readonly JunitCase[];
  /** The run's length, in ms. @default the sum of its cases */
  readonly ms?: number;
}

const seconds = (ms: number | undefined): string => ((ms ?? 0) / 1000).toFixed(3);

/**
 * A JUnit XML report (the format GitHub Actions, GitLab, Jenkins and Azure read), one `<testcase>`
 * per case, a failure's evidence as its message and body.
 *
 * @example
 * await writeFile('verify.xml', junitXml([{ name: 'mcp-golden verify', cases: [{ name: 'goldens/a.jsonl', classname: 'verify' }] }]))
 */
export function junitXml(suites: readonly JunitSuite[]): string {
  const count = (pick: (c: JunitCase) => boolean): number =>
    suites.reduce((n, s) => n + s.cases.filter(pick).length, 0);
  const total = (s: JunitSuite): number => s.ms ?? s.cases.reduce((n, c) => n + (c.ms ?? 0), 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mcp-golden" tests="${count(() => true)}" failures="${count((c) => c.failure !== undefined)}" skipped="${count((c) => c.skipped !== undefined)}" errors="0" time="${seconds(suites.reduce((n, s) => n + total(s), 0))}">`,
  ];
  for (const suite of suites) {
    const failures = suite.cases.filter((c) => c.failure !== undefined).length;
    const skipped = suite.cases.filter((c) => c.skipped !== undefined).length;
    lines.push(
      `  <testsuite name="${escapeXml(suite.name)}" tests="${suite.cases.length}" failures="${failures}" skipped="${skipped}" errors="0" time="${seconds(total(suite))}">`,
    );
    for (const c of suite.cases) {
      const head = `    <testcase name="${escapeXml(c.name)}" classname="${escapeXml(c.classname)}" time="${seconds(c.ms)}"`;
      if (c.failure) {
        lines.push(
          `${head}>`,
          `      <failure message="${escapeXml(c.failure.message)}">${escapeXml(c.failure.details ?? c.failure.message)}</failure>`,
          '    </testcase>',
        );
      } else if (c.skipped !== undefined) {
        lines.push(`${head}>`, `      <skipped message="${escapeXml(c.skipped)}"/>`, '    </testcase>');
      } else lines.push(`${head}/>`);
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}
