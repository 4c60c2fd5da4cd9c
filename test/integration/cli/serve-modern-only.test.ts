import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, test } from 'vitest';
import { startInProcess } from '../../support/in-process-cli.js';

describe('mcp-golden serve --modern-only', () => {
  test('the SDK v1 client is refused with -32022; the SDK v2 client pinned to 2026-07-28 calls a tool', async () => {
    const served = await startInProcess(['serve', '--modern-only']);
    try {
      const v1 = new ClientV1({ name: 'v1', version: '1' });
      await expect(v1.connect(new TransportV1(new URL(served.firstLine)))).rejects.toThrow(
        /-32022|Unsupported protocol version/,
      );
      await v1.close();
      const v2 = new ClientV2({ name: 'v2', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await v2.connect(new TransportV2(new URL(served.firstLine)));
      const result = await v2.callTool({ name: 'chatty', arguments: {} });
      expect(result.content).toHaveLength(4);
      await v2.close();
    } finally {
      await served.stop();
    }
  });

  test('--era legacy serves the SDK v1 client and refuses a 2026-07-28 client as SDK v1 servers do (400 -32000)', async () => {
    const served = await startInProcess(['serve', '--era', 'legacy']);
    try {
      const v1 = new ClientV1({ name: 'v1', version: '1' });
      await v1.connect(new TransportV1(new URL(served.firstLine)));
      expect((await v1.callTool({ name: 'chatty', arguments: {} })).content).toHaveLength(4);
      await v1.close();
      const v2 = new ClientV2({ name: 'v2', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await expect(v2.connect(new TransportV2(new URL(served.firstLine)))).rejects.toThrow();
      await v2.close();
      const discover = await fetch(served.firstLine, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'server/discover',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'server/discover',
          params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
        }),
      });
      expect(discover.status).toBe(400);
      expect(((await discover.json()) as { error: { code: number } }).error.code).toBe(-32000);
    } finally {
      await served.stop();
    }
  });
});
