import { runGatewayCheck } from 'mcp-golden/check';
import { describe, expect, test } from 'vitest';
import { SUPERGATEWAY as supergateway, verdicts } from '../../support/third-party-gateways.js';

describe('supergateway (npm) bridging a Streamable HTTP upstream to a stdio client', () => {
  test('is caught dropping every progress notification and losing cancels, with evidence from both legs', async () => {
    const report = await runGatewayCheck({
      gateway: `${supergateway} --streamableHttp {upstream} --logLevel none`,
      clientTransport: 'stdio',
      timeoutMs: 10_000,
    });
    expect(report.pass).toBe(false);
    expect(verdicts(report)).toEqual({
      'progress tokens (string)': 'fail',
      'progress tokens (number)': 'fail',
      'no progress without a token': 'pass',
      'progress streams live (50 ms steps)': 'fail',
      'progress streams live (500 ms steps)': 'fail',
      'blocks: count and order': 'pass',
      unicode: 'pass',
      'large output (50 x 64 KiB)': 'pass',
      'Last-Event-ID resume': 'n/a',
      'large multibyte output (8 x 64 Ki chars)': 'pass',
      'final progress back-to-back with the result': 'fail',
      // No progress reaches the client, so the cancel after progress 2 is never sent: not judged.
      'cancellation (string id, after progress 2)': 'n/a',
      'cancellation (large numeric id, after progress 2)': 'n/a',
      'cancellation (no progress needed, after 300 ms)': 'fail',
      'progress on the call stream (GET stream open)': 'n/a',
      'burst (200 notifications at once)': 'fail',
      'slow reader (100 x 16 KiB notifications)': 'fail',
      'concurrent calls without cross-talk': 'pass',
      'SSE events keep their event: field': 'n/a',
      'each response delivered once (GET stream open)': 'n/a',
      'two clients, one progress token: each gets its own': 'n/a',
      'Content-Length matches a rewritten body': 'pass',
      "Last-Event-ID never replays another session's events": 'n/a',
      'session affinity across two upstream replicas': 'n/a',
    });
    expect(report.results[0]?.evidence).toBe(
      'received 0 of 5 progress notifications (the last 5 missing); the upstream received token "check-token-é-🚀" (string) and sent 5 notifications',
    );
    const untimed = report.results.find((r) => r.property === 'cancellation (string id, after progress 2)');
    expect(untimed?.evidence).toMatch(
      /^not judged: the cancel after progress 2 could not be sent, because only 0 progress notifications reached the client/,
    );
    const timed = report.results.find((r) => r.property === 'cancellation (no progress needed, after 300 ms)');
    expect(timed?.evidence).toMatch(
      /^client→gateway: sent ".*notifications\/cancelled.*" \d+ ms into the call\. gateway→upstream: the upstream \(audit row \d+\) received request id/,
    );
  }, 180_000);
});
