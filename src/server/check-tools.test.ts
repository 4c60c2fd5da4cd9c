import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, test } from 'vitest';
import { AuditLog } from './audit-log.js';
import { MULTIBYTE_FILLER, multibyteBlock } from './check-tools.js';
import { connectReferenceServer } from './reference-server.js';

async function connect(checkTools: boolean): Promise<{ client: Client; audit: AuditLog }> {
  const audit = new AuditLog();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await connectReferenceServer(serverSide, { audit, checkTools });
  const client = new Client({ name: 'unit', version: '1.0.0' });
  await client.connect(clientSide);
  return { client, audit };
}

describe('the check tools (reference server --check-tools)', () => {
  test('are not listed nor callable by default, so the reference tools stay exactly as they were', async () => {
    const { client } = await connect(false);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['progress', 'long_output', 'chatty', 'audit_log']);
    await expect(client.callTool({ name: 'progress_tight', arguments: {} })).rejects.toThrow('Unknown tool');
    await client.close();
  });

  test('multibyte blocks are exact in code points and cycle 1- to 4-byte characters', () => {
    const block = multibyteBlock(3, 1000);
    expect([...block]).toHaveLength(1000);
    expect(block.startsWith(`[block 3] ${MULTIBYTE_FILLER}`)).toBe(true);
    expect(new Set([...MULTIBYTE_FILLER].map((c) => Buffer.byteLength(c)))).toEqual(new Set([1, 2, 3, 4]));
  });

  test('progress_tight sends the result right after the final notification, and the tag lands in the audit row', async () => {
    const { client, audit } = await connect(true);
    const seen: number[] = [];
    const result = await client.callTool(
      { name: 'progress_tight', arguments: { steps: 3, step_ms: 150, tag: 'unit-tag' } },
      undefined,
      { onprogress: (p) => seen.push(p.progress) },
    );
    expect(result.structuredContent).toEqual({ steps: 3, notified: true, done: true });
    const [row] = audit.entries();
    expect(row?.arguments).toEqual({ steps: 3, step_ms: 150, tag: 'unit-tag' });
    const last = row?.notifications.at(-1)?.sentAtMs ?? 0;
    // Two sleeps of 150 ms between three notifications, none after the last: the result follows the
    // last notification by far less than a step (half a step leaves room for a loaded machine's stall).
    expect(row?.notifications.map((n) => n.progress)).toEqual([1, 2, 3]);
    expect((row?.durationMs ?? 0) - last).toBeLessThan(75);
    await client.close();
  });

  test('a tag that is not a string is an invalid-params error naming it', async () => {
    const { client } = await connect(true);
    await expect(client.callTool({ name: 'multibyte_output', arguments: { tag: 5 } })).rejects.toThrow(
      'Invalid arguments for tool "multibyte_output": "tag" must be a string of at most 200 characters, got 5.',
    );
    await client.close();
  });
});
