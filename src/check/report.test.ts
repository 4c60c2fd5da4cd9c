import { describe, expect, test } from 'vitest';
import { formatReport, overallLine, timelineSvg } from './report.js';
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

describe('inconclusive rows, starts and the overall line', () => {
  const slow: CheckReport = {
    ...report,
    pass: true,
    results: [
      { property: 'unicode', verdict: 'pass', evidence: 'byte-identical', numbers: {}, calls: [] },
      {
        property: 'blocks: count and order',
        verdict: 'inconclusive',
        evidence: 'the gateway did not start in time: no answer',
        numbers: {},
        calls: [],
      },
    ],
    starts: { count: 12, medianMs: 2100, longestMs: 9400, late: 1 },
  };

  test('an inconclusive row is counted apart and the last line does not call the gateway faithful outright', () => {
    const lines = formatReport(slow).split('\n');
    expect(lines.find((l) => l.includes('blocks: count and order'))).toMatch(/\| inc\. \| the gateway did not start/);
    expect(lines.at(-2)).toBe(
      "gateway starts: 12 processes answered a first request after 2.1 s (median), 9.4 s at the longest; 1 did not answer within --timeout (their rows are inconclusive); the rows' clocks start after that",
    );
    expect(lines.at(-1)).toBe(
      '1 passed, 0 failed, 0 not applicable, 1 inconclusive: the gateway forwards MCP streaming faithfully in the rows judged (1 inconclusive: not a failure, not shown faithful)',
    );
  });

  test('starts under a second are given in ms, not as 0.0 s', () => {
    const quick = { ...slow, starts: { count: 26, medianMs: 41.6, longestMs: 1250, late: 0 } };
    expect(formatReport(quick).split('\n').at(-2)).toBe(
      "gateway starts: 26 processes answered a first request after 42 ms (median), 1.3 s at the longest; the rows' clocks start after that",
    );
  });

  test('after several tables the overall line names the failed combinations, as the exit code does', () => {
    const modern: CheckReport = { ...report, eras: { client: 'modern', upstream: 'legacy' } };
    expect(overallLine([slow, modern])).toBe(
      'overall, 2 tables: 1 passed, 1 failed (client modern → upstream legacy): the gateway breaks MCP streaming (1 rows inconclusive: not a failure, not shown faithful)',
    );
    expect(overallLine([slow, slow])).toMatch(
      /^overall, 2 tables: 2 passed, 0 failed: the gateway forwards MCP streaming faithfully in every table/,
    );
  });
});
