import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, test } from 'vitest';
import { runInProcess, startInProcess } from '../../support/in-process-cli.js';

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

  test('with --stdio it is a usage error', async () => {
    const result = await runInProcess(['serve', '--stdio', '--modern-only']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/\[mcp-golden\] .*--modern-only is for HTTP/);
  });
});
