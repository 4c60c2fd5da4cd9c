import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordCall } from '../../../src/record/record-call.js';
import { type ReferenceServer, startReferenceServer } from '../../../src/server/http-server.js';

/** SDK v1's stateful Streamable HTTP server, as 2025 servers deploy it: a transport per session. */
async function startSdkV1Server(): Promise<{ url: string; server: Server }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? transports.get(id) : undefined;
    if (!transport) {
      const fresh: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => {
          transports.set(sid, fresh);
        },
      });
      await new McpServer({ name: 'sdk-v1', version: '1.0.0' }).connect(fresh);
      transport = fresh;
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
/** 2026-07-28 requests as a modern client sends them: the envelope, Mcp-* headers, no session. */
const REQUESTS: [string, RequestInit][] = [
  ['server/discover', { 'mcp-method': 'server/discover' }],
  ['tools/call', { 'mcp-method': 'tools/call', 'mcp-name': 'progress' }],
  ['tools/list', { 'mcp-method': 'tools/list' }],
].map(([method, headers]) => [
  method as string,
  {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      ...(headers as Record<string, string>),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: { ...(method === 'tools/call' && { name: 'progress', arguments: {} }), _meta: MODERN_META },
    }),
  },
]);
REQUESTS.push(['GET', { headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2026-07-28' } }]);

let sdk: { url: string; server: Server };
let legacyOnly: ReferenceServer;
beforeAll(async () => {
  sdk = await startSdkV1Server();
  legacyOnly = await startReferenceServer({ modern: 'reject', checkTools: true });
});
afterAll(async () => {
  await legacyOnly.close();
  sdk.server.closeAllConnections();
  await new Promise((resolve) => sdk.server.close(resolve));
});

describe("a 2025-11-25-only reference server (modern: 'reject')", () => {
  test.each(REQUESTS)(
    'answers a 2026-07-28 %s as SDK v1 1.32 stateful StreamableHTTPServerTransport does',
    async (_, init) => {
      const answer = async (url: string) => {
        const response = await fetch(url, init);
        return { status: response.status, body: await response.json() };
      };
      const expected = await answer(sdk.url);
      expect(expected.status).toBe(400);
      expect(await answer(legacyOnly.url)).toEqual(expected);
    },
  );

  test('answers an initialize sent with a 2026-07-28 header as SDK v1 does (it reads no header on initialize)', async () => {
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
    };
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    for (const body of [initialize]) {
      const answer = async (url: string) => {
        const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
        const text = await response.text();
        const code = response.status >= 400 ? (JSON.parse(text) as { error: { code: number } }).error.code : undefined;
        return { status: response.status, code };
      };
      const expected = await answer(sdk.url);
      expect(await answer(legacyOnly.url), JSON.stringify(body)).toEqual(expected);
    }
  });

  test('serves the 2025 handshake and calls, and runs no 2026-07-28 call', async () => {
    const legacy = await recordCall(legacyOnly.url, { tool: 'chatty', timeoutMs: 5000 });
    expect(legacy.outcome.response).toBeDefined();
    await expect(recordCall(legacyOnly.url, { tool: 'chatty', era: 'modern', timeoutMs: 5000 })).rejects.toThrow(
      /Server not initialized/,
    );
    expect(legacyOnly.audit.entries().map((e) => e.tool)).toEqual(['chatty']);
  });
});
