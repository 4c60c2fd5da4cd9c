import { describe, expect, test } from 'vitest';
import { formatReport } from '../../../src/check/report.js';
import { NEEDS_ACCEL_HEADER } from '../../../src/check/vocabulary.js';
import { checkThrough } from '../../support/check-through-fault.js';

const SPACING = ['progress streams live (50 ms steps)', 'progress streams live (500 ms steps)'];

describe('the spacing rows say whether they need X-Accel-Buffering: no from the upstream', () => {
  test('a proxy that buffers unless the upstream sends the header (a stock nginx) is faithful only with it', async () => {
    const report = await checkThrough('buffer-unless-accel', { only: ['progress streams live'] });
    expect(report.results.map((r) => r.property)).toEqual(SPACING);
    for (const row of report.results) {
      expect(row.verdict).toBe('fail');
      expect(row.evidence).toMatch(
        /^faithful only when the upstream sends X-Accel-Buffering: no: without it, \d+ of \d+ notifications arrived within 5 ms of the result/,
      );
      expect(row.numbers[NEEDS_ACCEL_HEADER]).toBe(true);
      // Both calls are drawn: the one with the header and the one without.
      expect(row.calls.map((c) => c.label)).toEqual([
        expect.stringMatching(/ms$/),
        expect.stringMatching(/no X-Accel-Buffering$/),
      ]);
    }
    expect(report.pass).toBe(false);
    expect(formatReport(report)).toContain(
      '0 passed, 2 failed, 0 not applicable: the gateway forwards MCP streaming faithfully only when the upstream sends X-Accel-Buffering: no',
    );
  }, 120_000);

  test('a faithful proxy passes with and without the header, and says so', async () => {
    const report = await checkThrough('none', { only: ['progress streams live'] });
    for (const row of report.results) {
      expect(row.verdict).toBe('pass');
      expect(row.evidence).toMatch(/; the same with and without X-Accel-Buffering: no from the upstream$/);
      expect(row.calls).toHaveLength(2);
    }
  }, 120_000);

  test('a proxy that buffers whatever the upstream sends fails as before, without the qualification', async () => {
    const report = await checkThrough('buffer', { only: ['progress streams live (50'] });
    expect(report.results[0]?.verdict).toBe('fail');
    expect(report.results[0]?.evidence).not.toContain('X-Accel-Buffering');
    expect(formatReport(report)).toContain('the gateway breaks MCP streaming');
  }, 120_000);
});
