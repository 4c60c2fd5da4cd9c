import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type ReferenceServer, startReferenceServer } from '../../../src/server/http-server.js';
import { startHttpPassthroughReplay } from '../../support/http-passthrough-replay.js';

// `replay --unmatched passthrough` in the 2025 era: the client's notifications/cancelled for a call
// passed through to the live server goes to the live server, which stops as it does when cancelled
// directly (no progress more than 300 ms after the cancel, no result), and the golden records it.

let serve: ReferenceServer;
let dir: string;
beforeAll(async () => {
  serve = await startReferenceServer();
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-passthrough-cancel-'));
});
afterAll(async () => {
  await serve.close();
  await rm(dir, { recursive: true, force: true });
});

test('a cancelled passed-through call stops at the live server, and the golden records the cancel', async () => {
  const { passthrough, replay } = await startHttpPassthroughReplay(serve.url, dir);
  const client = new Client({ name: 'cancel-test', version: '1' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(replay.url)));
    const abort = new AbortController();
    let seen = 0;
    const call = client.callTool({ name: 'progress', arguments: { steps: 40, step_ms: 50 } }, undefined, {
      signal: abort.signal,
      onprogress: () => {
        seen++;
        if (seen === 3) abort.abort('enough');
      },
    });
    await expect(call).rejects.toThrow();
    // Wait long enough for a call that was not cancelled to send several more steps.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const row = serve.audit.entries().find((entry) => entry.tool === 'progress');
    expect(row?.cancelled, JSON.stringify(row)).toBe(true);
    expect(row?.done).toBe(false);
    const late = (row?.notifications ?? []).filter((n) => n.sentAtMs > (row?.cancelledAtMs ?? 0) + 300);
    expect(late).toEqual([]);
    expect(replay.report().requests).toContainEqual(
      expect.objectContaining({ method: 'notifications/cancelled', remark: 'passed through to the live server' }),
    );
  } finally {
    await client.close();
    await replay.close();
  }
  const files = await passthrough.finish();
  expect(files).toHaveLength(1);
  const written = await readFile(files[0] as string, 'utf8');
  expect(written).toContain('notifications/cancelled');
  expect(await readdir(dir)).toHaveLength(1);
}, 60_000);
