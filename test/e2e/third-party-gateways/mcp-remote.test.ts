import { runGatewayCheck } from 'mcp-golden/check';
import { describe, expect, test } from 'vitest';
import { MCP_REMOTE, verdicts } from '../../support/third-party-gateways.js';

describe('mcp-remote (npm) bridging the 2025-11-25 reference upstream to a stdio client', () => {
  // mcp-remote 0.15.1 sends `Mcp-Method: initialize` on its 2025-11-25 handshake: the upstream (the
  // check's default, 2025-11-25 only) must take that as the 2025 era it is (a server that read the
  // header as 2026-07-28 once answered 400 -32022 "only 2026-07-28", a setup error).
  test('its 2025 handshake carrying Mcp-Method is served as 2025, and the rows are judged', async () => {
    const report = await runGatewayCheck({
      gateway: `${MCP_REMOTE} {upstream} --allow-http --transport http-only`,
      clientTransport: 'stdio',
      timeoutMs: 15_000,
      only: ['unicode', 'blocks: count and order', 'progress tokens (string)'],
    });
    expect(verdicts(report)).toEqual({
      'progress tokens (string)': 'pass',
      'blocks: count and order': 'pass',
      unicode: 'pass',
    });
  });
});
