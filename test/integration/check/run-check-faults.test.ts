import { describe, expect, test } from 'vitest';
import { checkThrough, failing } from '../../support/check-through-fault.js';
import type { Fault } from '../../support/fault-proxy.js';

// Each fault runs only the rows it breaks plus a cheap row it must not break (blocks), so a fault
// costs seconds, not a whole battery; the benign transforms run the whole battery (run-check.test.ts).
const FAULTS: [Fault, string[]][] = [
  ['buffer', ['progress streams live (50 ms steps)', 'progress streams live (500 ms steps)', 'Last-Event-ID resume']],
  ['rewrite-token', ['progress tokens (string)', 'progress tokens (number)']],
  ['token-to-string', ['progress tokens (number)']],
  ['merge-blocks', ['blocks: count and order', 'large output (50 x 64 KiB)']],
  ['reorder-blocks', ['blocks: count and order', 'large output (50 x 64 KiB)']],
  ['latin1', ['unicode']],
  ['truncate', ['large output (50 x 64 KiB)']],
  ['drop-last-progress', ['progress tokens (string)', 'progress tokens (number)', 'final progress back-to-back']],
  ['progress-after-result', ['progress tokens (string)', 'progress tokens (number)']],
  ['drop-cancel', ['cancellation (string id', 'cancellation (large numeric id', 'cancellation (no progress']],
];

describe('mcp-golden check against in-repo fault-injecting proxies', () => {
  test.each(FAULTS)(
    '%s is caught by %j',
    async (fault, expected) => {
      const guard = fault === 'merge-blocks' || fault === 'reorder-blocks' ? 'no progress without a token' : 'blocks';
      const report = await checkThrough(fault, { only: [...expected, guard] });
      expect(failing(report)).toEqual(
        report.results.filter((r) => expected.some((e) => r.property.startsWith(e))).map((r) => r.property),
      );
      expect(failing(report)).toHaveLength(expected.length);
      expect(report.pass).toBe(false);
    },
    60_000,
  );
});
