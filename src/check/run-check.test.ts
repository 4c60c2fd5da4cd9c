import { describe, expect, test } from 'vitest';
import { checkThrough, failing } from '../../test/support/check-through-fault.js';

describe('mcp-golden check on faithful and benign paths', () => {
  test.each(['none', 'rechunk', 'reorder-keys', 'keep-alive-comments', 'remap-ids'] as const)(
    '%s passes every property',
    async (fault) => {
      const report = await checkThrough(fault);
      expect(failing(report)).toEqual([]);
      expect(report.results.filter((r) => r.verdict === 'n/a')).toEqual([]);
      expect(report.pass).toBe(true);
    },
    120_000,
  );

  test('the evidence is in numbers', async () => {
    const report = await checkThrough('buffer');
    const live = report.results.find((r) => r.property === 'progress streams live (50 ms steps)');
    expect(live?.evidence).toMatch(
      /^10 of 10 notifications arrived within 5 ms of the result; 9 of 9 gaps outside tolerance \(gap 1 was \d+ ms\); expected gaps of 5\d ms ± 2\d ms$/,
    );
    const cancel = report.results.find((r) => r.property.startsWith('cancellation'));
    expect(cancel?.verdict).toBe('n/a');
    expect(cancel?.evidence).toContain('progress 3 arrived in the same read as the result');
  }, 120_000);
});
