import { readdir } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, test } from 'vitest';
import { CLI } from '../../test/support/cli.js';
import { recordCall } from '../record/record-call.js';
import { scenarioOfGolden } from '../record/scenario-of-golden.js';
import { readGolden } from '../store/golden-file.js';
import { canonicalJson } from '../transcript/canonical-json.js';
import type { Transcript } from '../transcript/frame.js';
import { frameMessage, sseBlock } from '../transcript/frame-content.js';
import { semanticFrames } from '../transcript/semantic-view.js';
import { createReplayServer } from './replay-server.js';

const GOLDENS = fileURLToPath(new URL('../../goldens', import.meta.url));
const files = (await readdir(GOLDENS)).filter((f) => f.endsWith('.jsonl')).sort();
const goldens = new Map<string, Transcript>();
for (const file of files) goldens.set(file.replace(/\.jsonl$/, ''), await readGolden(join(GOLDENS, file)));
const golden = (name: string): Transcript => {
  const found = goldens.get(name);
  if (!found) throw new Error(`no golden ${name}`);
  return found;
};
const httpGoldens = [...goldens].filter(([, g]) => g.header.transport === 'http').map(([name]) => name);
const stdioGoldens = [...goldens].filter(([, g]) => g.header.transport === 'stdio').map(([name]) => name);

describe('replaying every golden', () => {
  test.concurrent.each(httpGoldens)(
    '%s over HTTP gives a transcript equal to the golden after normalisation',
    async (name) => {
      const replay = await createReplayServer(golden(name));
      try {
        const again = await recordCall(replay.url, scenarioOfGolden(golden(name)));
        expect(canonicalJson(semanticFrames(again))).toBe(canonicalJson(semanticFrames(golden(name))));
        expect(replay.report().unmatched).toEqual([]);
      } finally {
        await replay.close();
      }
    },
  );

  test.concurrent.each(stdioGoldens)(
    '%s over stdio (mcp-golden replay --stdio) equals the golden after normalisation',
    async (name) => {
      const again = await recordCall(
        {
          command: process.execPath,
          args: [CLI, 'replay', '--stdio', join(GOLDENS, `${name}.jsonl`)],
          label: 'mcp-golden serve --stdio',
        },
        scenarioOfGolden(golden(name)),
      );
      expect(canonicalJson(semanticFrames(again))).toBe(canonicalJson(semanticFrames(golden(name))));
    },
  );
});

describe('live stamping and matching', () => {
  test('a stdio golden replayed over HTTP resumes after a drop from the ids it gave its re-framed events', async () => {
    const stdio = golden('progress-stdio');
    const replay = await createReplayServer(stdio, { pace: 'instant' });
    try {
      // The recorder drops the stream after two notifications and reconnects with Last-Event-ID. At
      // instant pace every event arrives in one read: the recorder must resume after the last event it
      // took (not the last it parsed), and the replay, which keeps no bytes of what it sent, must make
      // the `<stream>-<event>` events after that id again.
      const again = await recordCall(replay.url, { ...scenarioOfGolden(stdio), transport: 'http', dropAfter: 2 });
      expect(again.outcome.resumed).toBe(true);
      expect(again.outcome.progress.map((m) => (m.params as { progress: number }).progress)).toEqual([1, 2, 3, 4, 5]);
      expect(again.outcome.response).toMatchObject({ result: { structuredContent: { done: true } } });
      expect(replay.report().unmatched).toEqual([]);
    } finally {
      await replay.close();
    }
  });

  test('stamps the live request id and token, of any JSON type, into every replayed frame', async () => {
    const recorded = golden('progress-10x100');
    const replay = await createReplayServer(recorded, { pace: 'instant' });
    try {
      const again = await recordCall(replay.url, {
        ...scenarioOfGolden(recorded),
        requestId: 'gateway-77',
        progressToken: 123456,
      });
      const progress = again.frames.filter((f) => frameMessage(f)?.method === 'notifications/progress');
      expect(progress).toHaveLength(10);
      for (const frame of progress) expect(frame.raw).toContain('"progressToken":123456,');
      expect(again.outcome.response?.id).toBe('gateway-77');
      const resultFrame = again.frames.find((f) => f.dir === 'server->client' && frameMessage(f)?.id === 'gateway-77');
      expect(resultFrame?.raw).toMatch(/"jsonrpc":"2\.0","id":"gateway-77"\}\n\n$/);
    } finally {
      await replay.close();
    }
  });

  test('sends no progress to a request without a token, as the live server would', async () => {
    const recorded = golden('progress-10x100');
    const replay = await createReplayServer(recorded, { pace: 'instant' });
    try {
      const { progressToken: _, ...withoutToken } = scenarioOfGolden(recorded);
      const again = await recordCall(replay.url, withoutToken);
      expect(again.outcome.progress).toEqual([]);
      expect(again.outcome.response).toBeDefined();
    } finally {
      await replay.close();
    }
  });

  test('answers an unmatched request with an error naming the nearest recorded one, and keeps serving', async () => {
    const recorded = golden('progress-10x100');
    const seen: string[] = [];
    const replay = await createReplayServer(recorded, {
      pace: 'instant',
      onUnmatchedRequest: (r) => seen.push(r.error),
    });
    try {
      const wrongArgs = await recordCall(replay.url, {
        tool: 'progress',
        arguments: { steps: 3, step_ms: 100 },
        progressToken: 'x',
        expectError: true,
      });
      const error = wrongArgs.outcome.response?.error as {
        code: number;
        message: string;
        data: { differences: string[] };
      };
      expect(error.code).toBe(-32602);
      expect(error.message).toContain(
        'no recorded request matches tools/call {"name":"progress","arguments":{"steps":3,"step_ms":100}}',
      );
      expect(error.message).toContain('Closest recorded (progress-10x100 #6)');
      expect(error.data.differences).toEqual(['params.arguments.steps: recorded 10, got 3']);
      const good = await recordCall(replay.url, scenarioOfGolden(recorded));
      expect(good.outcome.progress).toHaveLength(10);
      const report = replay.report();
      expect(report.unmatched).toHaveLength(1);
      expect(report.unmatched[0]).toMatchObject({ method: 'tools/call', matched: null });
      expect(report.requests.filter((r) => r.method === 'tools/call')).toHaveLength(2);
      expect(seen).toHaveLength(1);
    } finally {
      await replay.close();
    }
  });

  test('an unknown method gets method-not-found naming the nearest request', async () => {
    const replay = await createReplayServer(golden('chatty'), { pace: 'instant' });
    try {
      const client = new Client({ name: 'unmatched', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(replay.url)));
      const error = await client.listPrompts().catch((e: unknown) => e as Error);
      expect(String(error)).toContain('no recorded request matches prompts/list');
      const result = await client.callTool({ name: 'chatty', arguments: {} });
      expect((result.content as { text: string }[])[3]?.text).toBe('fourth block: unicode; café résumé naïve');
      await client.close();
    } finally {
      await replay.close();
    }
  });

  test('a cancellation mid-replay stops the remaining frames', async () => {
    const recorded = golden('progress-10x100');
    const replay = await createReplayServer(recorded);
    try {
      const again = await recordCall(replay.url, { ...scenarioOfGolden(recorded), cancelAfter: 2 });
      expect(again.outcome.progress).toHaveLength(2);
      expect(again.outcome.afterCancel).toEqual([]);
      expect(again.outcome.response).toBeUndefined();
    } finally {
      await replay.close();
    }
  });
});

describe('sessions', () => {
  test('serves 50 concurrent sessions with no cross-talk', async () => {
    const recorded = golden('progress-10x100');
    const replay = await createReplayServer(recorded, { pace: { scale: 0.2 } });
    try {
      const runs = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          recordCall(replay.url, {
            ...scenarioOfGolden(recorded),
            progressToken: `session-token-${i}`,
            requestId: i + 100,
          }),
        ),
      );
      runs.forEach((run, i) => {
        const tokens = run.outcome.progress.map((m) => (m.params as { progressToken: unknown }).progressToken);
        expect(tokens).toEqual(Array(10).fill(`session-token-${i}`));
        expect(run.outcome.response?.id).toBe(i + 100);
        const sessions = new Set(
          run.frames.flatMap((f) => (f.headers?.['mcp-session-id'] ? [f.headers['mcp-session-id']] : [])),
        );
        expect(sessions.size).toBe(1);
      });
      const all = new Set(
        runs.map((r) => r.frames.find((f) => f.headers?.['mcp-session-id'])?.headers?.['mcp-session-id']),
      );
      expect(all.size).toBe(50);
    } finally {
      await replay.close();
    }
  });
});

describe('adversarial chunking', () => {
  test('split events, split UTF-8, CRLF, keep-alives and priming still parse to the same messages', async () => {
    const recorded = golden('chatty');
    const plain = await createReplayServer(recorded, { pace: 'instant' });
    const hostile = await createReplayServer(recorded, {
      pace: 'instant',
      chunking: { splitEvents: 3, splitUtf8: true, crlf: true, keepAliveComments: true, primingEvents: true },
    });
    try {
      const a = await recordCall(plain.url, scenarioOfGolden(recorded));
      const b = await recordCall(hostile.url, scenarioOfGolden(recorded));
      expect(b.outcome.response).toEqual(a.outcome.response);
      const sse = b.frames.filter((f) => f.channel === 'sse');
      expect(sse.every((f) => f.raw?.endsWith('\r\n\r\n'))).toBe(true);
      expect(sse.some((f) => sseBlock(f)?.comments.includes(' keepalive'))).toBe(true);
      expect(sse.some((f) => sseBlock(f)?.id?.startsWith('primed-') && sseBlock(f)?.data === '')).toBe(true);
      const reads = (t: Transcript) =>
        t.frames.filter((f) => f.channel === 'read' && f.dir === 'server->client').length;
      expect(reads(b)).toBeGreaterThan(reads(a) * 2);
      const sdk = new Client({ name: 'hostile', version: '1.0.0' });
      await sdk.connect(new StreamableHTTPClientTransport(new URL(hostile.url)));
      const result = await sdk.callTool({ name: 'chatty', arguments: {} });
      expect((result.content as { text: string }[]).map((c) => c.text)[3]).toBe(
        'fourth block: unicode; café résumé naïve',
      );
      await sdk.close();
    } finally {
      await plain.close();
      await hostile.close();
    }
  });
});

describe('HTTP details', () => {
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  const post = (url: string, accept: string) =>
    fetch(url, { method: 'POST', headers: { accept, 'content-type': 'application/json' }, body: initialize });

  test("the recorded date header is today's, to the second", async () => {
    const replay = await createReplayServer(golden('progress-small'), { pace: 'instant' });
    try {
      const before = Math.floor(Date.now() / 1000) * 1000;
      const res = await post(replay.url, 'application/json, text/event-stream');
      await res.text();
      const date = Date.parse(res.headers.get('date') ?? '');
      expect(date).toBeGreaterThanOrEqual(before);
      expect(date).toBeLessThanOrEqual(Date.now());
    } finally {
      await replay.close();
    }
  });

  test("each request's Accept is judged on its own, whatever the one before asked", async () => {
    const replay = await createReplayServer(golden('progress-small'), { pace: 'instant' });
    try {
      // A POST must list both types, as the spec asks of clients and serve (the SDK) requires.
      for (const [accept, status] of [
        ['application/json, text/event-stream', 200],
        ['application/json', 406],
        ['text/event-stream, application/json', 200],
        ['text/event-stream', 406],
        ['*/*', 406],
      ] as const) {
        const res = await post(replay.url, accept);
        await res.text();
        expect(res.status, accept).toBe(status);
        if (status === 200) expect(res.headers.get('content-type'), accept).toBe('text/event-stream');
      }
      const refused = await post(replay.url, 'text/html');
      expect(refused.status).toBe(406);
      await refused.text();
    } finally {
      await replay.close();
    }
  });

  test('the endpoint answers with a query string and after dot segments; any other path is 404', async () => {
    const replay = await createReplayServer(golden('progress-small'), { pace: 'instant' });
    try {
      // node:http sends the target as written (fetch would resolve the dot segments itself).
      const status = (path: string) =>
        new Promise<{ status: number | undefined; body: string }>((resolve, reject) => {
          const req = request(
            {
              host: '127.0.0.1',
              port: replay.port,
              path,
              method: 'POST',
              headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
            },
            (res) => {
              let body = '';
              res.on('data', (chunk: Buffer) => {
                body += chunk;
              });
              res.on('end', () => resolve({ status: res.statusCode, body }));
            },
          );
          req.on('error', reject);
          req.end(initialize);
        });
      for (const path of ['/mcp?x=1', '/a/../mcp', '/mcp']) expect((await status(path)).status, path).toBe(200);
      const other = await status('/mcpx');
      expect(other.status).toBe(404);
      expect(other.body).toContain('the MCP endpoint is /mcp');
    } finally {
      await replay.close();
    }
  });
});
