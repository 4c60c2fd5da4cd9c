import { describe, expect, test } from 'vitest';
import { type Fault, startFaultProxy } from '../../test/support/fault-proxy.js';
import { freePort } from './gateway-process.js';
import { type CheckReport, runGatewayCheck } from './run-check.js';

const ALL = [
  'progress tokens (string)',
  'progress tokens (number)',
  'no progress without a token',
  'progress streams live (50 ms steps)',
  'progress streams live (500 ms steps)',
  'blocks: count and order',
  'unicode',
  'large output (50 x 64 KiB)',
  'cancellation reaches the upstream, nothing after it',
  'Last-Event-ID resume',
  'concurrent calls without cross-talk',
];

async function checkThrough(fault: Fault): Promise<CheckReport> {
  const upstreamPort = await freePort();
  const proxy = await startFaultProxy(`http://127.0.0.1:${upstreamPort}/mcp`, fault);
  try {
    return await runGatewayCheck({ gatewayUrl: proxy.url, upstreamPort, timeoutMs: 3000 });
  } finally {
    await proxy.close();
  }
}

const failing = (report: CheckReport): string[] =>
  report.results.filter((r) => r.verdict === 'fail').map((r) => r.property);

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
      expect(report.results.map((r) => r.property)).toEqual(ALL);
      expect(failing(report)).toEqual(expected);
      expect(report.pass).toBe(false);
    },
    120_000,
  );

  test.each(['none', 'rechunk', 'reorder-keys', 'keep-alive-comments', 'remap-ids'] as const)(
    'a faithful or benign path (%s) passes every property',
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
