import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ReferenceServer, startReferenceServer } from './http-server.js';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(async () => {
  await server.close();
});

async function pinned(url: string): Promise<ClientV2> {
  const client = new ClientV2({ name: 'v2', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new TransportV2(new URL(url)));
  return client;
}

const post = (body: unknown, headers: Record<string, string>) =>
  fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });

describe('the reference server in the modern era (2026-07-28), beside its 2025 sessions', () => {
  test('answers the SDK v2 client pinned to 2026-07-28 with its progress, and audits the call', async () => {
    const client = await pinned(server.url);
    try {
      expect(client.getServerVersion()?.name).toBe('mcp-golden-reference');
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain('progress');
      const progress: number[] = [];
      const result = await client.callTool(
        { name: 'progress', arguments: { steps: 3, step_ms: 20 } },
        { onprogress: (p: { progress: number }) => progress.push(p.progress) },
      );
      expect(progress).toEqual([1, 2, 3]);
      expect(result.structuredContent).toEqual({ steps: 3, notified: true, done: true });
      const row = server.audit.entries().at(-1);
      expect(row).toMatchObject({ tool: 'progress', sessionId: null, outcome: 'result' });
      expect(row?.notifications).toHaveLength(3);
    } finally {
      await client.close();
    }
  });

  test('serves a 2025 session (SDK v1 client) and a 2026 client side by side', async () => {
    const v1 = new ClientV1({ name: 'v1', version: '1' });
    await v1.connect(new TransportV1(new URL(server.url)));
    const v2 = await pinned(server.url);
    try {
      const [a, b] = await Promise.all([
        v1.callTool({ name: 'chatty', arguments: {} }),
        v2.callTool({ name: 'chatty', arguments: {} }),
      ]);
      expect(a.content).toEqual(b.content);
      expect(server.sessions()).toHaveLength(1);
    } finally {
      await Promise.all([v1.close(), v2.close()]);
    }
  });

  test('a closed stream cancels the call: the audit row says cancelled with the steps done', async () => {
    const response = await post(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'progress',
          arguments: { steps: 50, step_ms: 40 },
          _meta: {
            progressToken: 'c',
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
      { 'mcp-method': 'tools/call', 'mcp-name': 'progress', 'mcp-protocol-version': '2026-07-28' },
    );
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const reader = response.body?.getReader();
    await reader?.read();
    await reader?.cancel();
    let row = server.audit.entries().at(-1);
    for (let i = 0; i < 100 && row?.outcome === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      row = server.audit.entries().at(-1);
    }
    expect(row).toMatchObject({ tool: 'progress', outcome: 'cancelled', cancelled: true });
    expect(row?.stepsCompleted).toBeLessThan(10);
  });

  test('a 2025 initialize carrying Mcp-Method (as mcp-remote 0.15 sends it) starts a 2025 session', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'remote', version: '1' } },
    };
    const response = await post(init, { 'mcp-method': 'initialize' });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeTruthy();
    await response.arrayBuffer();
  });

  test('a header that disagrees with the body is 400 with -32020; a modern GET is 405', async () => {
    const mismatch = await post(
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {
          name: 'chatty',
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
      { 'mcp-method': 'tools/call', 'mcp-name': 'progress', 'mcp-protocol-version': '2026-07-28' },
    );
    expect(mismatch.status).toBe(400);
    expect(await mismatch.json()).toMatchObject({ id: 2, error: { code: -32020 } });
    const get = await fetch(server.url, {
      headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2026-07-28' },
    });
    expect(get.status).toBe(405);
    await get.arrayBuffer();
  });

  test("a 2025 request without a session keeps the SDK transport's refusals and their order (415, then parse error)", async () => {
    const wrongType = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
      body: 'not json',
    });
    expect(wrongType.status).toBe(415);
    await wrongType.arrayBuffer();
    const notJson = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{not json',
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ error: { code: -32700 } });
  });
});
