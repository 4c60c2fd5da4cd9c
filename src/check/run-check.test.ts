import { describe, expect, test } from 'vitest';
import { ALL_PROPERTIES, checkThrough, failing } from '../../test/support/check-through-fault.js';

describe('mcp-golden check on faithful and benign paths', () => {
  test.each(['none', 'remap-ids'] as const)(
    '%s passes every property',
    async (fault) => {
      const report = await checkThrough(fault);
      expect(report.results.map((r) => r.property)).toEqual(ALL_PROPERTIES);
      expect(failing(report)).toEqual([]);
      // Only the row that needs a second upstream replica, which this check does not start.
      expect(report.results.filter((r) => r.verdict === 'n/a').map((r) => r.property)).toEqual([
        'session affinity across two upstream replicas',
      ]);
      expect(report.pass).toBe(true);
    },
    120_000,
  );

  test('the evidence is in numbers', async () => {
    const report = await checkThrough('buffer', { only: ['progress streams live (50', 'cancellation'] });
    const live = report.results.find((r) => r.property === 'progress streams live (50 ms steps)');
    expect(live?.evidence).toMatch(
      /^10 of 10 notifications arrived within 5 ms of the result; 9 of 9 gaps outside tolerance \(gap 1 was \d+ ms\); expected gaps of 5\d ms ± 2\d ms$/,
    );
    const [afterProgress, , timed] = report.results.filter((r) => r.property.startsWith('cancellation'));
    // Held-back progress leaves no moment to cancel "after progress 2"; a timed cancel still measures.
    expect(afterProgress?.verdict).toBe('fail');
    expect(afterProgress?.evidence).toMatch(
      /^client→gateway: progress 2 reached the client \d+ ms after the upstream had finished .*: the gateway held progress back/,
    );
    expect(timed?.verdict).toBe('pass');
  }, 120_000);
});
