import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordCall } from '../../../src/record/record-call.js';
import type { Scenario } from '../../../src/record/scenario.js';
import { createReplayServer, type ReplayServer } from '../../../src/replay/replay-server.js';
import { startReferenceServer } from '../../../src/server/http-server.js';
import type { Transcript } from '../../../src/transcript/frame.js';
import { SDK_V2_SCENARIOS, type SdkV2Server, startSdkV2Server } from '../../support/sdk-v2-server.js';

const PINNED = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;

let live: SdkV2Server;
const modern: Record<string, Transcript> = {};
const legacy: Record<string, Transcript> = {};
const liveResults: Record<string, unknown> = {};

/** A pinned SDK v2 client that answers elicitation as the recorded scenario did. */
async function connectV2(url: string): Promise<ClientV2> {
  const client = new ClientV2({ name: 'v2', version: '1' }, { ...PINNED, capabilities: { elicitation: {} } });
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { ok: true } }));
  await client.connect(new TransportV2(new URL(url)));
  return client;
}

async function progressCall(client: ClientV2): Promise<{ result: unknown; progress: number[] }> {
  const progress: number[] = [];
  const result = await client.callTool(
    { name: 'progress', arguments: { steps: 4, step_ms: 30 } },
    { onprogress: (p: { progress: number }) => progress.push(p.progress) },
  );
  return { result, progress };
}

beforeAll(async () => {
  live = await startSdkV2Server({ legacy: 'reject' });
  for (const scenario of SDK_V2_SCENARIOS as Scenario[]) {
    modern[scenario.name as string] = await recordCall(live.url, { ...scenario, era: 'modern' });
  }
  const client = await connectV2(live.url);
  liveResults.progress = (await progressCall(client)).result;
  liveResults.confirm = await client.callTool({ name: 'confirm', arguments: {} });
  await client.close();
  const reference = await startReferenceServer();
  try {
    legacy.chatty = await recordCall(reference.url, { name: 'chatty', tool: 'chatty' });
  } finally {
    await reference.close();
  }
});
afterAll(async () => {
  await live.close();
});

async function withReplay<T>(goldens: Transcript[], run: (replay: ReplayServer) => Promise<T>): Promise<T> {
  const replay = await createReplayServer(goldens, { pace: 'instant' });
  try {
    return await run(replay);
  } finally {
    await replay.close();
  }
}

const post = (url: string, body: unknown, headers: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });

const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('replaying modern goldens (2026-07-28)', () => {
  test('the SDK v2 client pinned to 2026-07-28 gets the recorded results, progress and input_required round', async () => {
    await withReplay(Object.values(modern), async (replay) => {
      const client = await connectV2(replay.url);
      try {
        const { result, progress } = await progressCall(client);
        expect(result).toEqual(liveResults.progress);
        expect(progress).toEqual([1, 2, 3, 4]);
        expect(await client.callTool({ name: 'confirm', arguments: {} })).toEqual(liveResults.confirm);
      } finally {
        await client.close();
      }
      expect(replay.report().unmatched).toEqual([]);
      expect(replay.report().requests.map((r) => r.method)).toEqual([
        'server/discover',
        'tools/call',
        'tools/call',
        'tools/call',
      ]);
    });
  });

  test('a header that disagrees with the body is 400 with -32020', async () => {
    await withReplay(Object.values(modern), async (replay) => {
      const response = await post(
        replay.url,
        { jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: envelope } },
        { 'mcp-method': 'tools/call', 'mcp-protocol-version': '2026-07-28' },
      );
      expect(response.status).toBe(400);
      const body = (await response.json()) as { id: unknown; error: { code: number; message: string } };
      expect(body.id).toBe(5);
      expect(body.error.code).toBe(-32020);
      expect(body.error.message).toContain(
        'the body names method tools/list but the Mcp-Method header names tools/call',
      );
    });
  });

  test('an envelope naming another revision is 400 with -32022 listing the one served', async () => {
    await withReplay(Object.values(modern), async (replay) => {
      const response = await post(
        replay.url,
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/list',
          params: { _meta: { ...envelope, 'io.modelcontextprotocol/protocolVersion': '2027-01-01' } },
        },
        { 'mcp-method': 'tools/list', 'mcp-protocol-version': '2027-01-01' },
      );
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: -32022, data: { supported: ['2026-07-28'] } } });
    });
  });

  test('GET and DELETE are 405, and no request is given a session id', async () => {
    await withReplay(Object.values(modern), async (replay) => {
      for (const method of ['GET', 'DELETE']) {
        const response = await fetch(replay.url, { method, headers: { accept: 'text/event-stream' } });
        expect(response.status, method).toBe(405);
        expect(response.headers.get('allow')).toBe('POST');
        await response.arrayBuffer();
      }
      const discover = await post(
        replay.url,
        { jsonrpc: '2.0', id: 0, method: 'server/discover', params: { _meta: envelope } },
        { 'mcp-method': 'server/discover', 'mcp-protocol-version': '2026-07-28' },
      );
      expect(discover.status).toBe(200);
      expect(discover.headers.get('mcp-session-id')).toBeNull();
      expect(await discover.json()).toMatchObject({
        id: 0,
        result: { supportedVersions: ['2026-07-28'], resultType: 'complete' },
      });
    });
  });

  test('a client that closes its stream mid-call ends that call at once; the replay stays up and other calls finish', async () => {
    const slow = await recordCall(live.url, {
      name: 'slow',
      tool: 'progress',
      arguments: { steps: 6, step_ms: 60 },
      progressToken: 's',
      era: 'modern',
    });
    const replay = await createReplayServer([slow, ...Object.values(modern)]);
    try {
      const call = (token: string, signal?: AbortSignal) =>
        fetch(replay.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-method': 'tools/call',
            'mcp-name': 'progress',
            'mcp-protocol-version': '2026-07-28',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: token,
            method: 'tools/call',
            params: {
              name: 'progress',
              arguments: { steps: 6, step_ms: 60 },
              _meta: { ...envelope, progressToken: token },
            },
          }),
          ...(signal && { signal }),
        });
      const aborter = new AbortController();
      const [aborted, other] = await Promise.all([call('a', aborter.signal), call('b')]);
      const reader = aborted.body?.getReader();
      const first = await reader?.read();
      expect(new TextDecoder().decode(first?.value)).toContain('"progressToken":"a"');
      aborter.abort();
      const text = await other.text();
      expect(text.match(/notifications\/progress/g)).toHaveLength(6);
      expect(text).toContain('"id":"b"');
      expect(text).not.toContain('"progressToken":"a"');
      const after = await post(
        replay.url,
        { jsonrpc: '2.0', id: 9, method: 'server/discover', params: { _meta: envelope } },
        { 'mcp-method': 'server/discover', 'mcp-protocol-version': '2026-07-28' },
      );
      expect(after.status).toBe(200);
      await after.arrayBuffer();
    } finally {
      await replay.close();
    }
  });

  test('a recording the client cut short stays open as recorded, and closing the replay ends it cleanly', async () => {
    const replay = await createReplayServer([modern['modern-cancel'] as Transcript], { pace: 'instant' });
    const response = await post(
      replay.url,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'progress', arguments: { steps: 40, step_ms: 50 }, _meta: { ...envelope, progressToken: 'x' } },
      },
      { 'mcp-method': 'tools/call', 'mcp-name': 'progress', 'mcp-protocol-version': '2026-07-28' },
    );
    const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    let text = '';
    while ((text.match(/notifications\/progress/g) ?? []).length < 2) {
      const { value, done } = await reader.read();
      // A refusal instead of the stream must fail the test, not spin on a finished body.
      if (done) throw new Error(`the stream ended before 2 progress notifications: ${text}`);
      text += new TextDecoder().decode(value);
    }
    await replay.close();
    let ended = false;
    for (;;) {
      const { done } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
    }
    expect(ended).toBe(true);
  });

  test('a 2025 initialize carrying Mcp-Method (as mcp-remote 0.15 sends it) starts a 2025 session', async () => {
    await withReplay([legacy.chatty as Transcript, ...Object.values(modern)], async (replay) => {
      const init = {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'remote', version: '1' } },
      };
      const response = await post(replay.url, init, { 'mcp-method': 'initialize' });
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toBeTruthy();
      await response.arrayBuffer();
    });
  });

  test('one replay of 2025 and 2026 goldens serves the SDK v1 client and the pinned SDK v2 client', async () => {
    await withReplay([legacy.chatty as Transcript, ...Object.values(modern)], async (replay) => {
      const v1 = new ClientV1({ name: 'v1', version: '1' });
      await v1.connect(new TransportV1(new URL(replay.url)));
      const v2 = await connectV2(replay.url);
      try {
        const chatty = (await v1.callTool({ name: 'chatty', arguments: {} })) as { content: { text: string }[] };
        expect(chatty.content.map((c) => c.text)).toHaveLength(4);
        expect(v1.getServerVersion()?.name).toBe('mcp-golden-reference');
        const { result, progress } = await progressCall(v2);
        expect(result).toEqual(liveResults.progress);
        expect(progress).toEqual([1, 2, 3, 4]);
      } finally {
        await Promise.all([v1.close(), v2.close()]);
      }
      expect(replay.report().unmatched).toEqual([]);
    });
  });
});
