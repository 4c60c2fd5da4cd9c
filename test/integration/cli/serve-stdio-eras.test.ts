import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, test } from 'vitest';
import { CLI } from '../../support/cli.js';

// `serve --stdio` as the process a client starts, in each era: the SDK v2 client pinned to
// 2026-07-28 (server/discover, the envelope on every request, no initialize) and the SDK v1
// client (the 2025 handshake).

const served = (era: string) => ({ command: process.execPath, args: [CLI, 'serve', '--stdio', '--era', era] });

async function callPinnedV2(era: string): Promise<{ progress: number[]; result: unknown; version: unknown }> {
  const client = new ClientV2({ name: 'v2', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StdioV2({ ...served(era), stderr: 'ignore' }));
  try {
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'progress', arguments: { steps: 3, step_ms: 60 } },
      { onprogress: (p: { progress: number }) => progress.push(p.progress) },
    );
    return { progress, result: result.structuredContent, version: client.getNegotiatedProtocolVersion() };
  } finally {
    await client.close();
  }
}

async function callV1(era: string): Promise<unknown> {
  const client = new ClientV1({ name: 'v1', version: '1' });
  await client.connect(new StdioV1({ ...served(era), stderr: 'ignore' }));
  try {
    return (await client.callTool({ name: 'chatty', arguments: {} })).content;
  } finally {
    await client.close();
  }
}

describe('serve --stdio --era', () => {
  test('modern: the SDK v2 client pinned to 2026-07-28 gets the progress and the result; the SDK v1 client is refused with -32022', async () => {
    const { progress, result, version } = await callPinnedV2('modern');
    expect(version).toBe('2026-07-28');
    expect(progress).toEqual([1, 2, 3]);
    expect(result).toEqual({ steps: 3, notified: true, done: true });
    await expect(callV1('modern')).rejects.toThrow(/-32022|Unsupported protocol version/);
  });

  test('dual: answers the SDK v1 client and the pinned SDK v2 client, each in its own era', async () => {
    expect(await callV1('dual')).toHaveLength(4);
    const { progress, result } = await callPinnedV2('dual');
    expect(progress).toEqual([1, 2, 3]);
    expect(result).toEqual({ steps: 3, notified: true, done: true });
  });

  test('legacy: the SDK v1 client is served, the pinned SDK v2 client is not (server/discover is not found)', async () => {
    expect(await callV1('legacy')).toHaveLength(4);
    await expect(callPinnedV2('legacy')).rejects.toThrow();
  });
});
