import { runGatewayCheck } from 'mcp-golden/check';
import { describe, expect, test } from 'vitest';
import { MCP_REMOTE, verdicts } from '../../support/third-party-gateways.js';

const HEADERS = 'Mcp-* headers reach the upstream (2026-07-28)';
const CANCEL = 'cancellation (no progress needed, after 300 ms)';
const CLOSE = 'cancel by closing the stream (2026-07-28)';

describe('mcp-remote (npm) --protocol auto: a 2025 stdio client in front of a 2026-07-28-only upstream', () => {
  // The mixed-era cell the spec says fails without a dual-era bridge: the check's upstream is the
  // modern-only reference server (a 2025 `initialize` gets 400 -32022), its client a 2025 stdio client.
  // Without `--protocol auto`, mcp-remote forwards the 2025 handshake and the check stops at setup.
  test('the handshake crosses eras, the rows are judged, and the upstream leg shows the headers and the cancel it lost', async () => {
    const report = await runGatewayCheck({
      gateway: `${MCP_REMOTE} {upstream} --allow-http --transport http-only --protocol auto`,
      clientTransport: 'stdio',
      upstreamEra: 'modern',
      timeoutMs: 15_000,
      only: ['unicode', 'blocks: count and order', 'progress tokens (string)', HEADERS, CANCEL],
    });
    expect(report.eras).toEqual({ client: 'legacy', upstream: 'modern' });
    expect(verdicts(report)).toEqual({
      'progress tokens (string)': 'pass',
      'blocks: count and order': 'pass',
      unicode: 'pass',
      // mcp-remote 0.15.1 rewrites each call into the modern era with Mcp-Method, Mcp-Name and
      // MCP-Protocol-Version, but not the Mcp-Param-Tag the upstream's tool marks with x-mcp-header.
      [HEADERS]: 'fail',
      // A 2025 client's notifications/cancelled does not become a closed stream towards the modern
      // upstream (the way 2026-07-28 cancels over HTTP): the upstream runs the call to its end.
      [CANCEL]: 'fail',
    });
    const headers = report.results.find((r) => r.property === HEADERS)?.evidence ?? '';
    expect(headers).toMatch(/^gateway→upstream: mcp-param-tag missing/);
    expect(headers).toMatch(/mcp-method: tools\/call, mcp-name: progress_tight, mcp-protocol-version: 2026-07-28/);
    expect(report.results.find((r) => r.property === CANCEL)?.evidence).toMatch(
      /gateway→upstream: .*outcome result: the cancel never reached it .*it ran 40 of 40 steps/,
    );
  }, 60_000);

  // An upstream of both eras, as SDK v2 servers are: mcp-remote's server/discover probe finds
  // 2026-07-28 there and it speaks that era upstream, though its client speaks 2025-11-25. The rows
  // judge the upstream leg in the era the gateway was seen speaking (not "a 2025-11-25 upstream takes
  // no Mcp-* headers" while it received them), so the same two losses show as in front of a modern-only one.
  test('in front of an upstream of both eras, the upstream leg is judged in the era mcp-remote picked there (2026-07-28)', async () => {
    const report = await runGatewayCheck({
      gateway: `${MCP_REMOTE} {upstream} --allow-http --transport http-only --protocol auto`,
      clientTransport: 'stdio',
      upstreamEra: 'dual',
      timeoutMs: 15_000,
      only: [HEADERS, CANCEL, CLOSE],
    });
    expect(report.eras).toEqual({ client: 'legacy', upstream: 'dual' });
    expect(verdicts(report)).toEqual({ [HEADERS]: 'fail', [CANCEL]: 'fail', [CLOSE]: 'fail' });
    expect(report.results.find((r) => r.property === HEADERS)?.evidence).toMatch(
      /^gateway→upstream: mcp-param-tag missing/,
    );
  }, 60_000);
});
