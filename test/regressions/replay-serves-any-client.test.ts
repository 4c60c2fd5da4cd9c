import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, test } from 'vitest';
import { createReplayServer, type ReplayServer } from '../../src/replay/replay-server.js';
import { serveReplayStdio } from '../../src/replay/stdio-replay.js';
import { readGolden } from '../../src/store/golden-file.js';
import type { Frame, Transcript } from '../../src/transcript/frame.js';
import { frameMessage } from '../../src/transcript/frame-content.js';
import { startCli } from '../support/cli.js';
import { startInProcess } from '../support/in-process-cli.js';

// One test per failure listed under "Why" in issue 13, each reproducing what used to break.

const GOLDENS = fileURLToPath(new URL('../../goldens', import.meta.url));
const named = async (name: string) => {
  const file = join(GOLDENS, `${name}.jsonl`);
  return { file, golden: await readGolden(file) };
};
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const initialize = (version = '2025-11-25', id: unknown = 1) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { ...HEADERS, ...headers }, body, signal: AbortSignal.timeout(10_000) });
const dataOf = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('data: ') && l.length > 6)
    .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
const withServer = async (server: ReplayServer, run: (url: string) => Promise<void>) => {
  try {
    await run(server.url);
  } finally {
    await server.close();
  }
};

/** A golden as a stateless server would have recorded it: no session ids anywhere. */
const sessionless = (golden: Transcript): Transcript => ({
  ...golden,
  frames: golden.frames.map((f): Frame => {
    if (!f.headers || !('mcp-session-id' in f.headers)) return f;
    const { 'mcp-session-id': _, ...headers } = f.headers;
    return { ...f, headers };
  }),
});

describe('replay is a real MCP server (issue 13)', () => {
  test('a mixed directory answers HTTP initialize as Streamable HTTP, from an HTTP golden, with a session id', async () => {
    const all = await Promise.all(['chatty-stdio', 'progress-stdio', 'chatty'].map(named));
    await withServer(await createReplayServer(all, { pace: 'instant' }), async (url) => {
      const res = await post(url, initialize());
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      expect(res.headers.get('mcp-session-id')).toMatch(/^replay-session-/);
      // The HTTP golden's bytes, its priming event first: not a stdio line.
      expect(await res.text()).toMatch(/^id: 1-1\nretry: 200\ndata: \n\n/);
      const client = new Client({ name: 'mixed', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      expect((await client.callTool({ name: 'chatty', arguments: {} })).content).toHaveLength(4);
      await client.close();
    });
  });

  test('sessionless goldens answer over HTTP: requests without a session id are served', async () => {
    const golden = sessionless((await named('chatty')).golden);
    await withServer(await createReplayServer(golden, { pace: 'instant' }), async (url) => {
      const init = await post(url, initialize());
      expect(init.headers.get('mcp-session-id')).toBeNull();
      await init.text();
      const call = await post(
        url,
        JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'chatty', arguments: {} } }),
      );
      const [answer] = dataOf(await call.text());
      expect(answer).toMatchObject({ id: 9, result: { content: expect.any(Array) } });
      const client = new Client({ name: 'stateless', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      expect((await client.callTool({ name: 'chatty', arguments: {} })).content).toHaveLength(4);
      await client.close();
    });
  });

  test('the presence of a progress token decides the golden (and refuses a token call under match strict)', async () => {
    const goldens = [await named('progress-no-token'), await named('progress-token-zero')];
    await withServer(await createReplayServer(goldens, { pace: 'instant' }), async (url) => {
      const client = new Client({ name: 'tokens', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const args = { name: 'progress', arguments: { steps: 3, step_ms: 50 } };
      await client.callTool(args);
      await client.callTool(args, undefined, { onprogress: () => undefined });
      await client.close();
    });
    const goldensOnlyNoToken = [await named('progress-no-token')];
    const server = await createReplayServer(goldensOnlyNoToken, { pace: 'instant', match: 'strict' });
    const matched: (string | null)[] = [];
    await withServer(server, async (url) => {
      const client = new Client({ name: 'tokens', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const error = await client
        .callTool({ name: 'progress', arguments: { steps: 3, step_ms: 50 } }, undefined, {
          onprogress: () => undefined,
        })
        .catch((e: Error) => e);
      expect(String(error)).toContain('Closest recorded (progress-no-token.jsonl #');
      expect(String(error)).toContain('params._meta.progressToken: not recorded, got');
      await client.close();
      matched.push(
        ...server
          .report()
          .requests.filter((r) => r.method === 'tools/call')
          .map((r) => r.matched),
      );
    });
    expect(matched).toEqual([null]);
  });

  test('a call with a token gets the token golden and one without gets the no-token golden', async () => {
    const goldens = [await named('progress-token-zero'), await named('progress-no-token')];
    const server = await createReplayServer(goldens, { pace: 'instant' });
    await withServer(server, async (url) => {
      const client = new Client({ name: 'tokens', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const args = { name: 'progress', arguments: { steps: 3, step_ms: 50 } };
      await client.callTool(args);
      await client.callTool(args, undefined, { onprogress: () => undefined });
      await client.close();
      const calls = server.report().requests.filter((r) => r.method === 'tools/call');
      expect(calls.map((c) => c.matched?.replace(/ #\d+$/, ''))).toEqual([
        'progress-no-token.jsonl',
        'progress-token-zero.jsonl',
      ]);
    });
  });

  test('bad bodies get a clear 400, batches a clear -32600, and the replayer keeps serving', async () => {
    await withServer(await createReplayServer(await named('chatty'), { pace: 'instant' }), async (url) => {
      for (const body of ['null', '5', '"text"', 'true', '{}', '{"jsonrpc":"2.0"}']) {
        const res = await post(url, body);
        expect(res.status, body).toBe(400);
        expect(((await res.json()) as { error: { code: number } }).error.code, body).toBe(-32600);
      }
      const invalid = await post(url, '{"jsonrpc":');
      expect(invalid.status).toBe(400);
      expect(((await invalid.json()) as { error: { code: number } }).error.code).toBe(-32700);
      const init = await post(url, initialize());
      const session = init.headers.get('mcp-session-id') as string;
      await init.text();
      const batch = await post(url, JSON.stringify([{ jsonrpc: '2.0', id: 2, method: 'ping' }]), {
        'mcp-session-id': session,
      });
      expect(batch.status).toBe(400);
      const error = ((await batch.json()) as { error: { code: number; message: string } }).error;
      expect(error.code).toBe(-32600);
      expect(error.message).toContain('not supported in protocol version 2025-11-25');
      const ping = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }), {
        'mcp-session-id': session,
      });
      expect(dataOf(await ping.text())).toEqual([{ jsonrpc: '2.0', id: 3, result: {} }]);
    });
  });

  test('a batch is answered where the negotiated version has batches (2025-03-26)', async () => {
    const chatty = (await named('chatty')).golden;
    const old: Transcript = {
      ...chatty,
      frames: chatty.frames.map((f) =>
        f.raw?.includes('"protocolVersion":"2025-11-25"') && frameMessage(f)?.result
          ? { ...f, raw: f.raw.replace('"protocolVersion":"2025-11-25"', '"protocolVersion":"2025-03-26"') }
          : f,
      ),
    };
    await withServer(await createReplayServer(old, { pace: 'instant' }), async (url) => {
      const init = await post(url, initialize('2025-03-26'));
      const session = init.headers.get('mcp-session-id') as string;
      const [answer] = dataOf(await init.text()) as { result: { protocolVersion: string } }[];
      expect(answer?.result.protocolVersion).toBe('2025-03-26');
      const batch = [
        { jsonrpc: '2.0', id: 'a', method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'chatty', arguments: {} } },
      ];
      const res = await post(url, JSON.stringify(batch), { 'mcp-session-id': session });
      expect(res.status).toBe(200);
      const answers = (await res.json()) as { id: string; result: { content?: unknown[] } }[];
      expect(answers.map((a) => a.id)).toEqual(['a', 'b']);
      expect(answers[1]?.result.content).toHaveLength(4);
    });
  });

  test('a body over the limit gets 413 without being echoed or kept in memory', async () => {
    const replay = await startCli(['replay', join(GOLDENS, 'chatty.jsonl'), '--port', '0', '--pace', 'instant']);
    try {
      const marker = 'x'.repeat(10 * 1024 * 1024);
      const ten = await post(replay.firstLine, `{"jsonrpc":"2.0","id":1,"method":"${marker}"}`);
      expect(ten.status).toBe(413);
      const text = await ten.text();
      expect(text.length).toBeLessThan(1000);
      expect(text).toContain('Request body too large: more than 4194304 bytes');
      // 100 MB streamed without a length: the replayer stops reading and its memory stays small.
      const status = await new Promise<number>((resolve, reject) => {
        const url = new URL(replay.firstLine);
        const req = httpRequest(
          { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: HEADERS },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        const chunk = Buffer.alloc(1024 * 1024, 'y');
        let sent = 0;
        const pump = (): void => {
          while (sent < 100 && req.write(chunk)) sent++;
          if (sent < 100) req.once('drain', pump);
          else req.end();
        };
        pump();
      });
      expect(status).toBe(413);
      const rss = Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${replay.child.pid}/status`, 'utf8'))?.[1]);
      expect(rss * 1024).toBeLessThan(300 * 1024 * 1024);
      const client = new Client({ name: 'after', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(replay.firstLine)));
      expect((await client.callTool({ name: 'chatty', arguments: {} })).content).toHaveLength(4);
      await client.close();
    } finally {
      await replay.stop();
    }
  });

  test('Streamable HTTP rules: 406, 415, 403 for a foreign Origin unless allowed, version negotiation', async () => {
    const chatty = (await named('chatty')).golden;
    const older: Transcript = {
      ...chatty,
      frames: chatty.frames.map((f) =>
        f.raw?.includes('"protocolVersion":"2025-11-25"') && frameMessage(f)?.result
          ? { ...f, raw: f.raw.replace('"protocolVersion":"2025-11-25"', '"protocolVersion":"2025-06-18"') }
          : f,
      ),
    };
    const server = await createReplayServer([chatty, older], {
      pace: 'instant',
      allowedOrigins: ['https://app.example'],
    });
    await withServer(server, async (url) => {
      expect((await post(url, initialize(), { accept: '' })).status).toBe(406);
      expect((await post(url, initialize(), { accept: 'text/html' })).status).toBe(406);
      expect((await post(url, initialize(), { 'content-type': 'text/plain' })).status).toBe(415);
      const foreign = await post(url, initialize(), { origin: 'https://evil.example' });
      expect(foreign.status).toBe(403);
      const refusal = (await foreign.json()) as { error: { message: string } };
      expect(refusal.error.message).toContain('Origin "https://evil.example" is not allowed');
      expect((await post(url, initialize(), { origin: 'http://localhost:5173' })).status).toBe(200);
      expect((await post(url, initialize(), { origin: 'https://app.example' })).status).toBe(200);
      const versionOf = async (asked: string) =>
        (dataOf(await (await post(url, initialize(asked))).text())[0] as { result: { protocolVersion: string } }).result
          .protocolVersion;
      expect(await versionOf('2025-06-18')).toBe('2025-06-18');
      expect(await versionOf('2025-11-25')).toBe('2025-11-25');
      // A version no golden has: the newest the goldens hold.
      expect(await versionOf('2024-11-05')).toBe('2025-11-25');
    });
  });

  test('the CLI allows a browser Origin only with --allow-origin', async () => {
    const golden = join(GOLDENS, 'chatty.jsonl');
    const strict = await startInProcess(['replay', golden, '--port', '0', '--pace', 'instant']);
    const open = await startInProcess(['replay', golden, '--port', '0', '--allow-origin', 'https://app.example']);
    try {
      const origin = { origin: 'https://app.example' };
      expect((await post(strict.firstLine, initialize(), origin)).status).toBe(403);
      expect((await post(open.firstLine, initialize(), origin)).status).toBe(200);
      expect((await post(open.firstLine, initialize(), { origin: 'https://evil.example' })).status).toBe(403);
    } finally {
      await strict.stop();
      await open.stop();
    }
  });

  test('a client that lists tools first is answered from the recorded tools/list', async () => {
    await withServer(await createReplayServer(await named('progress-10x100'), { pace: 'instant' }), async (url) => {
      const init = await post(url, initialize());
      const session = init.headers.get('mcp-session-id') as string;
      await init.text();
      const list = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 'list-first', method: 'tools/list' }), {
        'mcp-session-id': session,
      });
      const [answer] = dataOf(await list.text());
      const { id, result } = answer as { id: unknown; result: { tools: { name: string }[] } };
      expect(id).toBe('list-first');
      expect(result.tools.map((t) => t.name)).toContain('progress');
    });
  });

  test('--priming keeps Last-Event-ID resumption working: the priming id resumes from the start', async () => {
    const server = await createReplayServer(await named('progress-10x100'), {
      pace: { scale: 0.5 },
      chunking: { primingEvents: true },
    });
    await withServer(server, async (url) => {
      const init = await post(url, initialize());
      const session = init.headers.get('mcp-session-id') as string;
      await init.text();
      const abort = new AbortController();
      const call = await fetch(url, {
        method: 'POST',
        headers: { ...HEADERS, 'mcp-session-id': session },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'progress', arguments: { steps: 10, step_ms: 100 }, _meta: { progressToken: 't' } },
        }),
        signal: abort.signal,
      });
      const reader = (call.body as ReadableStream<Uint8Array>).getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      const primed = /^id: (primed-\d+)\n/.exec(first)?.[1];
      expect(primed).toBeDefined();
      abort.abort();
      const resumed = await fetch(url, {
        headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': primed as string },
        signal: AbortSignal.timeout(10_000),
      });
      expect(resumed.status).toBe(200);
      const messages = dataOf(await resumed.text());
      expect(messages.filter((m) => m.method === 'notifications/progress')).toHaveLength(10);
      expect(messages.at(-1)).toMatchObject({ id: 7, result: { structuredContent: { done: true } } });
    });
  });

  test('server-initiated messages are replayed over stdio and over HTTP', async () => {
    const chatty = (await named('chatty-stdio')).golden;
    const init = chatty.frames.find((f) => frameMessage(f)?.method === 'initialize') as Frame;
    const listChanged = '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n';
    const golden: Transcript = {
      ...chatty,
      frames: [
        ...chatty.frames,
        { t: init.t + 1000, dir: 'server->client', channel: 'stdio', exchange: 0, raw: listChanged },
      ],
    };
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let out = '';
    stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const replay = serveReplayStdio([golden], { stdin, stdout, pace: 'instant' });
    stdin.end(`${initialize('2025-11-25', 0)}\n`);
    await replay.closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(out.split('\n')).toContain(listChanged.trim());
    await withServer(await createReplayServer(golden, { pace: 'instant' }), async (url) => {
      const res = await post(url, initialize());
      const session = res.headers.get('mcp-session-id') as string;
      await res.text();
      const abort = new AbortController();
      const stream = await fetch(url, {
        headers: { accept: 'text/event-stream', 'mcp-session-id': session },
        signal: abort.signal,
      });
      const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
      const text = new TextDecoder().decode((await reader.read()).value);
      abort.abort();
      expect(dataOf(text)).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
    });
  });

  test('an unmatched request carries one "MCP error" prefix, and reports name golden files', async () => {
    const server = await createReplayServer(await named('chatty'), { pace: 'instant' });
    await withServer(server, async (url) => {
      const client = new Client({ name: 'prefix', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const error = await client.callTool({ name: 'nope', arguments: {} }).catch((e: Error) => e);
      expect((error as Error).message.match(/MCP error/g)).toHaveLength(1);
      expect((error as Error).message).toContain('Closest recorded (chatty.jsonl #');
      await client.callTool({ name: 'chatty', arguments: {} });
      await client.close();
      const report = server.report();
      expect(report.unmatched).toHaveLength(1);
      expect(report.requests.find((r) => r.method === 'tools/call' && r.matched)?.matched).toMatch(
        /^chatty\.jsonl #\d+$/,
      );
    });
  });
});
