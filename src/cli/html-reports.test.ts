import { expect, test } from 'vitest';
import type { VerifyReport } from '../verify/verify-report.js';
import { verifySections } from './html-reports.js';

test('verify --html: one difference is "1 difference", two are "2 differences"', () => {
  const golden = (n: number) => ({
    file: 'goldens/x.jsonl',
    position: 1,
    pass: false,
    ms: 1,
    rewritten: false,
    volatile: {},
    differences: Array.from({ length: n }, (_, i) => ({
      where: 'tools/call result',
      path: `$.a${i}`,
      kind: 'changed' as const,
      expected: 1,
      actual: 2,
    })),
  });
  const report = (n: number): VerifyReport => ({
    format: 'mcp-golden-verify/1',
    command: 'verify',
    shard: { index: 1, count: 1, given: 1 },
    cwd: process.cwd(),
    pass: false,
    failOn: 'any',
    update: false,
    summary: { goldens: 1, passed: 0, failed: 1, rewritten: 0, ms: 1 },
    goldens: [golden(n)],
    schemaChanges: [],
  });
  expect(verifySections(report(1), new Map(), process.cwd())[0]?.rows[0]?.evidence).toBe('1 difference');
  expect(verifySections(report(2), new Map(), process.cwd())[0]?.rows[0]?.evidence).toBe('2 differences');
});

test('verify --html: a diff of look-alike strings (NFC vs NFD, a BOM) shows them apart, escaped as verify prints them', () => {
  const report: VerifyReport = {
    format: 'mcp-golden-verify/1',
    command: 'verify',
    shard: { index: 1, count: 1, given: 1 },
    cwd: process.cwd(),
    pass: false,
    failOn: 'any',
    update: false,
    summary: { goldens: 1, passed: 0, failed: 1, rewritten: 0, ms: 5 },
    goldens: [
      {
        file: 'goldens/unicode.jsonl',
        position: 1,
        pass: false,
        ms: 5,
        rewritten: false,
        volatile: {},
        differences: [
          { where: 'tools/call result', path: '$.a', kind: 'changed', expected: 'café', actual: 'cafe\u0301' },
          { where: 'tools/call result', path: '$.b', kind: 'changed', expected: 'hello', actual: '\ufeffhello' },
        ],
      },
    ],
    schemaChanges: [],
  };
  const diff = verifySections(report, new Map(), process.cwd())[0]?.rows[0]?.diff ?? [];
  expect(diff).toEqual([
    '@ tools/call result $.a',
    '- "café"',
    '+ "cafe\\u0301"',
    '@ tools/call result $.b',
    '- "hello"',
    '+ "\\ufeffhello"',
  ]);
});
