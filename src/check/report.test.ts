import { describe, expect, test } from 'vitest';
import { formatReport, timelineSvg } from './report.js';
import type { CheckReport } from './vocabulary.js';

const LONG = 'progress is forwarded live through the gateway, not buffered until the result';
const report: CheckReport = {
  gateway: 'my-gateway --port 9',
  upstreamTransport: 'http',
  clientTransport: 'http',
  startedAt: '2026-11-26T10:00:00.000Z',
  durationMs: 1200,
  pass: false,
  results: [
    {
      property: LONG,
      verdict: 'fail',
      evidence: 'all 4 notifications arrived with the result',
      numbers: {},
      calls: [
        {
          label: 'progress 4 x 100 ms',
          upstreamSentMs: [1000, 1100, 1200, 1300],
          clientReceivedMs: [1400, 1400, 1400, 1400],
          clientResultMs: 1401,
        },
      ],
    },
    {
      property: 'unicode',
      verdict: 'pass',
      evidence: 'byte-identical',
      numbers: {},
      calls: [{ label: 'chatty', upstreamSentMs: [], clientReceivedMs: [], clientResultMs: 5000 }],
    },
  ],
};

describe('timelineSvg', () => {
  const svg = timelineSvg(report);
  const texts = [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1] ?? '');

  test('draws one time axis in ms, shared by every call', () => {
    expect(texts).toContain('ms');
    // The longest call spans 401 ms: ticks every 100 ms from 0.
    expect(texts.filter((t) => /^\d+$/.test(t))).toEqual(['0', '100', '200', '300', '400']);
  });

  test('writes each row title in full, wrapped, and its pass/fail mark', () => {
    const title = texts.filter((t) => LONG.includes(t) && t.length > 3).join(' ');
    expect(title).toBe(LONG);
    expect(svg).toContain('fill="#d62728" font-weight="bold">✗ FAIL</text>');
    expect(svg).toContain('fill="#2ca02c" font-weight="bold">✓ pass</text>');
  });
});

describe('formatReport summary', () => {
  const passing: CheckReport = {
    ...report,
    pass: true,
    results: [report.results[1] as CheckReport['results'][number]],
  };
  test('a whole battery that passes is faithful', () => {
    expect(formatReport(passing).trimEnd().split('\n').at(-1)).toMatch(
      /: the gateway forwards MCP streaming faithfully$/,
    );
  });
  test('a run narrowed with --only says what it covered, not that the gateway is faithful', () => {
    const last = formatReport({ ...passing, only: ['unicode'] })
      .trimEnd()
      .split('\n')
      .at(-1);
    expect(last).toMatch(
      /the gateway forwards the rows run \(--only "unicode"\) faithfully; the rest of the battery was not run$/,
    );
  });
});
