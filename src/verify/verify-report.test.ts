import { describe, expect, test } from 'vitest';
import { formatReportTail, type VerifyReport } from './verify-report.js';

type ReportedGolden = VerifyReport['goldens'][number];

const golden = (file: string, extra: Partial<ReportedGolden>): ReportedGolden => ({
  file,
  position: 1,
  pass: false,
  ms: 5,
  rewritten: false,
  volatile: {},
  differences: [],
  ...extra,
});

const report = (goldens: ReportedGolden[], update = false): VerifyReport => ({
  format: 'mcp-golden-verify/1',
  command: 'verify',
  shard: { index: 1, count: 1, given: goldens.length },
  cwd: process.cwd(),
  pass: goldens.every((g) => g.pass),
  failOn: 'any',
  update,
  summary: {
    goldens: goldens.length,
    passed: goldens.filter((g) => g.pass).length,
    failed: goldens.filter((g) => !g.pass).length,
    rewritten: 0,
    ms: 10,
  },
  goldens,
  schemaChanges: [],
});

const changed = golden('a.jsonl', {
  differences: [{ where: 'result', path: '$.content[0].text', kind: 'changed', message: 'text changed' }],
});
const unstartable = golden('b.jsonl', {
  error: 'the server exited before answering initialize',
  differences: [{ where: 'session', path: '', kind: 'error', message: 'the server exited' }],
});

describe('formatReportTail: what to do next', () => {
  test('a changed golden gets the --update hint', () => {
    expect(formatReportTail(report([changed])).join('\n')).toContain('--update');
  });

  test('a server that could not be run gets no --update hint (it would rewrite nothing), but the fix', () => {
    const tail = formatReportTail(report([unstartable])).join('\n');
    expect(tail).not.toContain('--update');
    expect(tail).toContain('No session could be run');
  });

  test('a mix of both keeps the --update hint for the golden that differs', () => {
    expect(formatReportTail(report([changed, unstartable])).join('\n')).toContain('--update');
  });

  test("merge-reports' tail names the shards' verify commands, not merge-reports, which has no --update", () => {
    const tail = formatReportTail(report([changed]), { merged: true }).join('\n');
    expect(tail).not.toContain('same command');
    expect(tail).toContain("run each failing shard's verify command again with --update");
    const none = formatReportTail(report([unstartable]), { merged: true }).join('\n');
    expect(none).not.toContain('same command');
    expect(none).toContain("run the failing shards' verify commands again");
  });

  test('a server that fails every golden the same way has its error shown once, each other golden naming the first', () => {
    const failing = (file: string, why: string) => {
      const message = `Could not run the session of "${file}" against "node server.mjs": ${why}`;
      return golden(file, { error: message, differences: [{ where: 'session', path: '', kind: 'error', message }] });
    };
    const stack = 'exited with code 1. Its stderr ended with:\nError: Cannot find module\n    at Module._load';
    const tail = formatReportTail(
      report([failing('/g/a.jsonl', stack), failing('/g/b.jsonl', stack), failing('/g/c.jsonl', 'timed out')]),
    ).join('\n');
    expect(tail.match(/Cannot find module/g)).toHaveLength(1);
    expect(tail).toMatch(
      /FAIL \S*g\/b.jsonl\n {2}session: could not be run, with the same error as \S*g\/a.jsonl above/,
    );
    expect(tail).toContain('timed out');
  });
});
