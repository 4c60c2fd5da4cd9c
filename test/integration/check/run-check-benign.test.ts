import { describe, expect, test } from 'vitest';
import { checkThrough } from '../../support/check-through-fault.js';

describe('mcp-golden check gives no false positive on benign transforms', () => {
  test.each(['rechunk', 'reorder-keys', 'keep-alive-comments'] as const)(
    '%s passes every property',
    async (fault) => {
      const report = await checkThrough(fault);
      expect(report.results.filter((r) => r.verdict === 'fail').map((r) => `${r.property}: ${r.evidence}`)).toEqual([]);
      // Only the row that needs a second upstream replica, which this check does not start.
      expect(report.results.filter((r) => r.verdict === 'n/a').map((r) => r.property)).toEqual([
        'session affinity across two upstream replicas',
      ]);
      expect(report.pass).toBe(true);
    },
    120_000,
  );
});
