import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type SdkV2Server, startSdkV2Server } from '../../test/support/sdk-v2-server.js';
import { recordCall } from '../record/record-call.js';
import { readGolden } from '../store/golden-file.js';
import type { Transcript } from '../transcript/frame.js';
import { frameMessage } from '../transcript/frame-content.js';
import { crossGolden } from './cross-era.js';
import { createReplayServer, type ReplayServer } from './replay-server.js';

// A call recorded in one era answers a client of the other, re-framed as that era's transport has it.

const PINNED = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;
const GOLDENS = join(import.meta.dirname, '../../goldens');
const CHATTY = join(GOLDENS, 'chatty.jsonl');

async function withReplay<T>(goldens: Transcript[], run: (replay: ReplayServer) => Promise<T>): Promise<T> {
  const replay = await createReplayServer(goldens, { pace: 'instant' });
  try {
    return await run(replay);
  } finally {
    await replay.close();
  }
}

/** The recorded result of the golden's tools/call. */
function recordedCallResult(golden: Transcript): Record<string, unknown> {
  const call = golden.frames.find((f) => f.dir === 'client->server' && frameMessage(f)?.method === 'tools/call');
  const answer = golden.frames.find(
    (f) => f.dir === 'server->client' && f.exchange === call?.exchange && frameMessage(f)?.result !== undefined,
  );
  return frameMessage(answer as NonNullable<typeof answer>)?.result as Record<string, unknown>;
}

describe('a 2025 golden answers a 2026-07-28 client', () => {
  test('the SDK v2 client pinned to 2026-07-28 lists and calls from goldens/chatty.jsonl; the report says the answers crossed', async () => {
    const chatty = await readGolden(CHATTY);
    const recorded = recordedCallResult(chatty);
    await withReplay([chatty], async (replay) => {
      const client = new ClientV2({ name: 'v2', version: '1' }, PINNED);
      await client.connect(new TransportV2(new URL(replay.url)));
      try {
        const tools = await client.listTools();
        expect(tools.tools.map((t) => t.name)).toContain('chatty');
        const result = await client.callTool({ name: 'chatty', arguments: {} });
        expect(result.content).toEqual(recorded.content);
      } finally {
        await client.close();
      }
      const report = replay.report();
      expect(report.unmatched).toEqual([]);
      const answered = report.requests.filter((r) => r.method === 'tools/call' || r.method === 'tools/list');
      expect(answered.length).toBe(2);
      for (const entry of answered)
        expect(entry.matched).toMatch(/^chatty \(2025-11-25 golden, answered across eras\) #\d+$/);
      expect(report.requests.find((r) => r.method === 'server/discover')?.matched).toMatch(/answered across eras/);
    });
  });

  test('on the wire: resultType "complete", no session, no SSE ids or priming events', async () => {
    const chatty = await readGolden(CHATTY);
    await withReplay([chatty], async (replay) => {
      const response = await fetch(replay.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-method': 'tools/call',
          'mcp-name': 'chatty',
          'mcp-protocol-version': '2026-07-28',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 41,
          method: 'tools/call',
          params: {
            name: 'chatty',
            arguments: {},
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toBeNull();
      const text = await response.text();
      expect(text).not.toMatch(/^id:/m);
      const data = text
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => JSON.parse(l.slice(6)));
      expect(data).toHaveLength(1);
      expect(data[0].id).toBe(41);
      expect(data[0].result.resultType).toBe('complete');
    });
  });
});

describe('a 2026-07-28 golden answers a 2025 client', () => {
  let live: SdkV2Server;
  let golden: Transcript;
  beforeAll(async () => {
    live = await startSdkV2Server({ legacy: 'reject' });
    golden = await recordCall(live.url, {
      name: 'modern-progress',
      tool: 'progress',
      arguments: { steps: 4, step_ms: 30 },
      progressToken: 'm-1',
      era: 'modern',
    });
  });
  afterAll(async () => {
    await live.close();
  });

  test('the SDK v1 client initializes, lists and calls with progress; the result has no resultType', async () => {
    const recorded = recordedCallResult(golden);
    expect(recorded.resultType).toBe('complete');
    await withReplay([golden], async (replay) => {
      const client = new ClientV1({ name: 'v1', version: '1' });
      await client.connect(new TransportV1(new URL(replay.url)));
      try {
        // The server's own name as the golden recorded it (discover's _meta), not the URL it was recorded from.
        expect(client.getServerVersion()).toMatchObject({ name: 'sdk-v2-fixture', version: '1.0.0' });
        const tools = await client.listTools();
        expect(tools.tools.map((t) => t.name)).toContain('progress');
        const progress: number[] = [];
        const result = await client.callTool({ name: 'progress', arguments: { steps: 4, step_ms: 30 } }, undefined, {
          onprogress: (p) => progress.push(p.progress),
        });
        expect(progress).toEqual([1, 2, 3, 4]);
        expect(result.content).toEqual(recorded.content);
        expect(result).not.toHaveProperty('resultType');
      } finally {
        await client.close();
      }
      const report = replay.report();
      // As the SDK v2 server in stateless mode, a replay of 2026-07-28 goldens has no GET stream for a
      // 2025 client: the SDK v1 client's GET (when it opens one before the test ends) is answered 405
      // and listed; the client goes on without it.
      expect(report.unmatched.filter((r) => r.httpMethod !== 'GET')).toEqual([]);
      for (const get of report.unmatched) expect(get.error).toMatch(/^Method not allowed/);
      const call = report.requests.find((r) => r.method === 'tools/call');
      expect(call?.matched).toMatch(/^modern-progress \(2026-07-28 golden, answered across eras\) #\d+$/);
    });
  });

  test('a golden of the client’s own era is preferred over a crossed one', async () => {
    const chatty = await readGolden(CHATTY);
    await withReplay([golden, chatty], async (replay) => {
      const client = new ClientV1({ name: 'v1', version: '1' });
      await client.connect(new TransportV1(new URL(replay.url)));
      try {
        await client.callTool({ name: 'chatty', arguments: {} });
      } finally {
        await client.close();
      }
      const call = replay.report().requests.find((r) => r.method === 'tools/call');
      expect(call?.matched).toMatch(/^chatty\.jsonl #\d+$|^chatty #\d+$/);
    });
  });
});

describe('crossGolden', () => {
  test('every committed 2025 golden re-framed for 2026-07-28: no session, no SSE ids, every result complete, no initialize', async () => {
    for (const name of (await readdir(GOLDENS)).filter((f) => f.endsWith('.jsonl'))) {
      const crossed = crossGolden(await readGolden(join(GOLDENS, name)), 'modern');
      if (!crossed) continue;
      expect(crossed.header.era, name).toBe('modern');
      for (const frame of crossed.frames) {
        expect(frame.headers?.['mcp-session-id'], name).toBeUndefined();
        if (frame.channel === 'sse') expect(frame.raw, name).not.toMatch(/^id:/m);
        const message = frameMessage(frame);
        expect(message?.method, name).not.toBe('initialize');
        if (frame.dir === 'server->client' && message?.result !== undefined)
          expect((message.result as { resultType?: unknown }).resultType, name).toBe('complete');
      }
      const discover = crossed.frames.map(frameMessage).find((m) => m?.method === 'server/discover');
      expect(discover, name).toBeDefined();
      // Its answer as a 2026-07-28 server gives it: not cached, naming the server the golden recorded in _meta.
      const answer = crossed.frames.map(frameMessage).find((m) => m?.id === discover?.id && m?.result)?.result;
      expect(answer, name).toMatchObject({
        ttlMs: 0,
        cacheScope: 'private',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'mcp-golden-reference' } },
      });
    }
  });
});
