import { describe, expect, test } from 'vitest';
import { checkThrough } from '../../support/check-through-fault.js';
import type { Fault } from '../../support/fault-proxy.js';

/** Each 2025 fault-class row against a proxy that has the fault, and a faithful one. */
const CASES: readonly { row: string; fault: Fault; evidence: RegExp }[] = [
  {
    row: 'SSE events keep their event: field',
    fault: 'drop-event-field',
    evidence:
      /^client→gateway: \d+ of \d+ SSE events arrived without an event: field \(the upstream sends "event: message" on every one\)/,
  },
  {
    row: 'each response delivered once (GET stream open)',
    fault: 'duplicate-response',
    evidence:
      /^client→gateway: the result of request "check-once" arrived 2 times: 1 on the call's stream, 1 on the standalone GET stream/,
  },
  {
    row: 'two clients, one progress token: each gets its own',
    fault: 'route-progress-by-token',
    evidence:
      /^client→gateway: client A \(3 steps\) got progress .* client B \(5 steps\) got progress .*: each should get only its own/,
  },
  {
    row: 'Content-Length matches a rewritten body',
    fault: 'stale-content-length',
    evidence:
      /^gateway→upstream: the upstream refused the gateway's request: .*Content-Length says \d+ bytes, but only \d+ arrived within 2000 ms/,
  },
  {
    row: "Last-Event-ID never replays another session's events",
    fault: 'global-event-replay',
    evidence:
      /^client→gateway: session B sent Last-Event-ID "[^"]+" \(an event of session A\) and received \d+ of session A's messages/,
  },
];

describe('rows for the fault classes gateways shipped in 2025', () => {
  test.each(CASES)(
    '$row fails through $fault',
    async ({ row, fault, evidence }) => {
      const report = await checkThrough(fault, { only: [row] });
      expect(report.results.map((r) => [r.property, r.verdict])).toEqual([[row, 'fail']]);
      expect(report.results[0]?.evidence).toMatch(evidence);
    },
    60_000,
  );

  test('a faithful proxy passes every one of them', async () => {
    const report = await checkThrough('none', { only: CASES.map((c) => c.row) });
    expect(report.results.map((r) => [r.property, r.verdict])).toEqual(CASES.map((c) => [c.row, 'pass']));
  }, 60_000);
});

describe('compression: the spacing rows send the Accept-Encoding real clients send', () => {
  test('a proxy that compresses SSE with br and holds it in the compressor fails both spacing rows', async () => {
    const report = await checkThrough('compress-hold', { only: ['progress streams live'] });
    for (const row of report.results) {
      expect([row.property, row.verdict]).toEqual([row.property, 'fail']);
      expect(row.evidence).toMatch(/^\d+ of \d+ notifications arrived within 5 ms of the result/);
    }
  }, 60_000);

  test('a proxy that compresses SSE with br and flushes every read passes: judged on the decompressed stream', async () => {
    const report = await checkThrough('compress-flush', { only: ['progress streams live'] });
    expect(report.results.map((r) => r.verdict)).toEqual(['pass', 'pass']);
  }, 60_000);
});
