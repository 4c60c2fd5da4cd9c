import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createReplayHandlers } from '../../../src/msw/create-replay-handlers.js';
import { recordCall } from '../../../src/record/record-call.js';
import type { Transcript } from '../../../src/transcript/frame.js';
import { type SdkV2Server, startSdkV2Server } from '../../support/sdk-v2-server.js';

const server = setupServer();
let live: SdkV2Server;
let golden: Transcript;
beforeAll(async () => {
  live = await startSdkV2Server({ legacy: 'reject' });
  golden = await recordCall(live.url, {
    tool: 'progress',
    arguments: { steps: 3, step_ms: 10 },
    progressToken: 'p',
    era: 'modern',
  });
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(async () => {
  server.close();
  await live.close();
});

describe('createReplayHandlers with a modern golden (msw, in process)', () => {
  test('answers the SDK v2 client pinned to 2026-07-28 with the recorded progress and result, and a GET with 405', async () => {
    const url = 'http://modern-upstream.test/mcp';
    const replay = createReplayHandlers(golden, { url, pace: 'instant' });
    server.use(...replay.handlers);
    const client = new ClientV2({ name: 'v2', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      await client.connect(new TransportV2(new URL(url)));
      const progress: number[] = [];
      const result = await client.callTool(
        { name: 'progress', arguments: { steps: 3, step_ms: 10 } },
        { onprogress: (p: { progress: number }) => progress.push(p.progress) },
      );
      expect(progress).toEqual([1, 2, 3]);
      expect(result.structuredContent).toEqual({ steps: 3, notified: 3, done: true });
      expect(replay.report().unmatched).toEqual([]);
      const get = await fetch(url, { headers: { accept: 'text/event-stream' } });
      expect(get.status).toBe(405);
      // A refused GET is listed, so a test sees a client that still opens the 2025 GET stream.
      expect(replay.report().unmatched).toMatchObject([{ httpMethod: 'GET', matched: null }]);
    } finally {
      await client.close();
      replay.close();
    }
  });
});
