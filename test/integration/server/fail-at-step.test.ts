import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type Notification, ProgressNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { AuditLog } from '../../../src/server/audit-log.js';
import { connectReferenceServer } from '../../../src/server/reference-server.js';

/** Calls `progress` with a string token on a reference server with `failAtStep`, collecting notifications. */
async function callProgress(failAtStep: number | undefined, args: Record<string, number>) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await connectReferenceServer(serverSide, { audit: new AuditLog(), failAtStep });
  const client = new Client({ name: 'unit', version: '1.0.0' });
  const seen: Notification['params'][] = [];
  client.setNotificationHandler(ProgressNotificationSchema, (n) => {
    seen.push(n.params);
  });
  await client.connect(clientSide);
  try {
    const result = await client.callTool({
      name: 'progress',
      arguments: args,
      _meta: { progressToken: 'fail-token' },
    });
    return { result, seen };
  } finally {
    await client.close();
  }
}

describe('the opt-in failure path of progress (failAtStep)', () => {
  test('fails at the step with a final notification (progress == total) before an isError result', async () => {
    const { result, seen } = await callProgress(3, { steps: 5, step_ms: 1 });
    expect(seen.map((p) => [p?.progress, p?.total])).toEqual([
      [1, 5],
      [2, 5],
      [5, 5],
    ]);
    expect(seen.at(-1)?.message).toBe('failed at step 3/5');
    expect(result).toEqual({ content: [{ type: 'text', text: 'progress failed at step 3/5' }], isError: true });
  });

  test('without the switch, or past the last step, the tool behaves exactly as specified', async () => {
    for (const failAtStep of [undefined, 9]) {
      const { result, seen } = await callProgress(failAtStep, { steps: 3, step_ms: 1 });
      expect(seen.map((p) => p?.message)).toEqual(['step 1/3', 'step 2/3', 'step 3/3']);
      expect(result.structuredContent).toEqual({ steps: 3, notified: true, done: true });
      expect(result.isError).toBeUndefined();
    }
  });
});
