import type { TimelineSection } from '../report/html-report.js';
import type { JunitSuite } from '../report/junit.js';
import { wrap } from '../wrap.js';
import type { ClientCheckReport, Verdict } from './vocabulary.js';

const MARK: Record<Verdict, string> = { pass: 'pass', warn: 'warn', fail: 'FAIL', 'n/a': 'n/a ', inconclusive: 'inc.' };

/** How many rows got each verdict: `20 passed, 1 warned, 3 failed`. */
export function clientCounts(report: Pick<ClientCheckReport, 'results'>): string {
  const count = (v: Verdict): number => report.results.filter((r) => r.verdict === v).length;
  const parts = [`${count('pass')} passed`, `${count('warn')} warned`, `${count('fail')} failed`];
  if (count('n/a') > 0) parts.push(`${count('n/a')} not applicable`);
  if (count('inconclusive') > 0) parts.push(`${count('inconclusive')} inconclusive`);
  return parts.join(', ');
}

/** The last line: what the exit code says. */
export function clientSummary(report: ClientCheckReport): string {
  const scope = report.only ? ` in the rows run (--only ${report.only.map((t) => JSON.stringify(t)).join(', ')})` : '';
  return `${clientCounts(report)}: ${report.pass ? `the client survives every fault${scope}` : `the client fails on streaming faults${scope}`}`;
}

/** The verdict table: one line per row and era, then the totals. */
export function formatClientReport(report: ClientCheckReport, width = 110): string {
  const nameWidth = Math.max(8, ...report.results.map((r) => r.property.length));
  const evidenceWidth = Math.max(30, width - nameWidth - 19);
  const rule = `${'-'.repeat(nameWidth + 2)}+--------+------+${'-'.repeat(evidenceWidth + 2)}`;
  const lines = [
    `mcp-golden check --client: ${report.client}`,
    `eras ${report.eras.join(', ')}, ${(report.durationMs / 1000).toFixed(1)} s`,
    '',
    ` ${'row'.padEnd(nameWidth)} | era    | res  | evidence`,
    rule,
  ];
  for (const r of report.results) {
    const [first, ...rest] = wrap(r.evidence, evidenceWidth);
    lines.push(` ${r.property.padEnd(nameWidth)} | ${r.era.padEnd(6)} | ${MARK[r.verdict]} | ${first}`);
    for (const more of rest) lines.push(` ${''.padEnd(nameWidth)} |        |      | ${more}`);
  }
  lines.push(rule, clientSummary(report));
  return lines.join('\n');
}

/** `check --client --junit`: one test case per row and era; a warn passes, with its evidence in the name's suite. */
export function clientJunit(report: ClientCheckReport): JunitSuite[] {
  const cases = report.results.map((row) => ({
    name: `${row.property} [${row.era}]`,
    classname: 'mcp-golden.check.client',
    ms: row.ms,
    ...(row.verdict === 'fail' && { failure: { message: row.evidence } }),
    ...(row.verdict === 'n/a' && { skipped: row.evidence }),
    ...(row.verdict === 'inconclusive' && { skipped: `inconclusive: ${row.evidence}` }),
  }));
  return [{ name: `mcp-golden check --client: ${report.client}`, cases, ms: report.durationMs }];
}

/** `check --client --html`: one row per row and era, the server's and the client's lanes on the client's clock. */
export function clientSections(report: ClientCheckReport): TimelineSection[] {
  const rows = report.results.map((row) => ({
    name: `${row.property} (${row.era})`,
    verdict: row.verdict,
    evidence: row.evidence,
    lanes: [
      { name: 'server', marks: row.timeline.server },
      { name: 'client', marks: row.timeline.client },
    ],
  }));
  return [{ title: `client: ${report.client}`, rows }];
}
