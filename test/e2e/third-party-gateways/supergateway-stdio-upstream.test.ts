import { runGatewayCheck } from 'mcp-golden/check';
import { describe, expect, test } from 'vitest';
import { SUPERGATEWAY as supergateway, verdicts } from '../../support/third-party-gateways.js';

describe('supergateway (npm) bridging a stdio upstream to Streamable HTTP', () => {
  test('streams faithfully call by call, but mixes notifications between concurrent calls of one session', async () => {
    const report = await runGatewayCheck({
      gateway: `${supergateway} --stdio "{upstream}" --outputTransport streamableHttp --stateful --port {port} --logLevel none`,
      upstreamTransport: 'stdio',
      timeoutMs: 10_000,
    });
    const failed = report.results.filter((r) => r.verdict === 'fail');
    expect(
      failed.map((r) => r.property),
      failed.map((r) => `${r.property}: ${r.evidence}`).join('\n'),
    ).toEqual(['concurrent calls without cross-talk']);
    expect(report.results.find((r) => r.property === 'concurrent calls without cross-talk')?.evidence).toMatch(
      /^client→gateway \(on one session\): call \d received \d+ notifications? of other calls/,
    );
    // The gateway starts one upstream per session, so the upstream's own record of when it sent
    // each notification comes from the audit file every upstream process appends to.
    const spacing = report.results.find((r) => r.property === 'progress streams live (50 ms steps)');
    expect(spacing?.calls[0]?.upstreamSentMs).toHaveLength(10);
    expect(spacing?.calls[0]?.clientReceivedMs).toHaveLength(10);
    expect(verdicts(report)).toMatchObject({
      'progress streams live (50 ms steps)': 'pass',
      'large multibyte output (8 x 64 Ki chars)': 'pass',
      'cancellation (string id, after progress 2)': 'pass',
      'Last-Event-ID resume': 'n/a',
      'SSE events keep their event: field': 'pass',
      'each response delivered once (GET stream open)': 'pass',
      'two clients, one progress token: each gets its own': 'pass',
      // A stdio upstream has no Content-Length; the gateway sends no event ids to resume from.
      'Content-Length matches a rewritten body': 'n/a',
      "Last-Event-ID never replays another session's events": 'n/a',
    });
  }, 180_000);
});
