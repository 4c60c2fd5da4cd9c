import { describe, expect, test } from 'vitest';
import { recordCall } from '../../../src/record/record-call.js';
import { startReferenceServer } from '../../../src/server/http-server.js';

describe("a modern-only reference server (legacy: 'reject')", () => {
  test('refuses the 2025 handshake with 400 and -32022, a GET with 405, and serves 2026-07-28 with the Mcp-* headers in the audit', async () => {
    const server = await startReferenceServer({ legacy: 'reject' });
    try {
      const initialize = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        }),
      });
      expect(initialize.status).toBe(400);
      const body = (await initialize.json()) as { id: number; error: { code: number; data: unknown } };
      expect(body.id).toBe(0);
      expect(body.error.code).toBe(-32022);
      expect(body.error.data).toEqual({ supported: ['2026-07-28'], requested: '2025-11-25' });
      const get = await fetch(server.url, { headers: { accept: 'text/event-stream' } });
      expect(get.status).toBe(405);
      await get.arrayBuffer();
      await expect(recordCall(server.url, { tool: 'chatty', timeoutMs: 5000 })).rejects.toThrow(/-32022/);
      const modern = await recordCall(server.url, {
        tool: 'progress',
        arguments: { steps: 2, step_ms: 5 },
        progressToken: 'p',
        era: 'modern',
        timeoutMs: 5000,
      });
      expect(modern.outcome.progress).toHaveLength(2);
      expect(server.audit.entries().at(-1)?.mcpHeaders).toMatchObject({
        'mcp-method': 'tools/call',
        'mcp-name': 'progress',
        'mcp-protocol-version': '2026-07-28',
      });
    } finally {
      await server.close();
    }
  });

  test('the default server still serves the 2025 handshake', async () => {
    const server = await startReferenceServer();
    try {
      const legacy = await recordCall(server.url, { tool: 'chatty', timeoutMs: 5000 });
      expect(legacy.outcome.response).toBeDefined();
      expect(server.audit.entries().at(-1)?.mcpHeaders).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
