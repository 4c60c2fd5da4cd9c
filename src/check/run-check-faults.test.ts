import { describe, expect, test } from 'vitest';
import { ALL_PROPERTIES, checkThrough, failing } from '../../test/support/check-through-fault.js';
import type { Fault } from '../../test/support/fault-proxy.js';

// Each fault must be caught by the property it breaks, and by no other.
const FAULTS: [Fault, string[]][] = [
  ['buffer', ['progress streams live (50 ms steps)', 'progress streams live (500 ms steps)', 'Last-Event-ID resume']],
  ['rewrite-token', ['progress tokens (string)', 'progress tokens (number)']],
  ['token-to-string', ['progress tokens (number)']],
  ['merge-blocks', ['blocks: count and order', 'large output (50 x 64 KiB)']],
  ['reorder-blocks', ['blocks: count and order', 'large output (50 x 64 KiB)']],
  ['latin1', ['unicode']],
  ['truncate', ['large output (50 x 64 KiB)']],
  ['drop-last-progress', ['progress tokens (string)', 'progress tokens (number)']],
  ['progress-after-result', ['progress tokens (string)', 'progress tokens (number)']],
  ['drop-cancel', ['cancellation reaches the upstream, nothing after it']],
];

describe('mcp-golden check against in-repo fault-injecting proxies', () => {
  test.each(FAULTS)(
    '%s is caught by exactly %j',
    async (fault, expected) => {
      const report = await checkThrough(fault);
      expect(report.results.map((r) => r.property)).toEqual(ALL_PROPERTIES);
      expect(failing(report)).toEqual(expected);
      expect(report.pass).toBe(false);
    },
    120_000,
  );
});
