import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { createReplayServer } from '../../src/replay/replay-server.js';
import { startReferenceServer } from '../../src/server/http-server.js';
import { readGolden } from '../../src/store/golden-file.js';

// A gateway must not pass against `serve` and fail against `replay` of the same server (issue 32):
// the two answer the Streamable HTTP rules alike, as the spec and the SDK's server do.

const golden = await readGolden(fileURLToPath(new URL('../../goldens/progress-small.jsonl', import.meta.url)));
const BOTH = 'application/json, text/event-stream';
const INIT =
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';
const LIST = '{"jsonrpc":"2.0","id":2,"method":"tools/list"}';

interface Answer {
  readonly status: number;
  readonly code: number | undefined;
}

async function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body !== undefined && { body }),
  });
  const text = await res.text();
  let code: number | undefined;
  try {
    code = (JSON.parse(text) as { error?: { code?: number } }).error?.code;
  } catch {
    code = undefined;
  }
  return { status: res.status, code };
}

/** Opens a session at 2025-11-25; returns the headers its requests carry. */
async function session(url: string): Promise<Record<string, string>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { accept: BOTH, 'content-type': 'application/json' },
    body: INIT,
  });
  await res.text();
  const headers = {
    accept: BOTH,
    'mcp-session-id': res.headers.get('mcp-session-id') as string,
    'mcp-protocol-version': '2025-11-25',
  };
  await send(url, 'POST', headers, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
  return headers;
}

const CASES: readonly {
  readonly name: string;
  readonly want: Answer;
  readonly run: (url: string, headers: Record<string, string>) => Promise<Answer>;
}[] = [
  {
    name: 'an unsupported MCP-Protocol-Version on a POST',
    want: { status: 400, code: -32000 },
    run: (url, h) => send(url, 'POST', { ...h, 'mcp-protocol-version': '1999-01-01' }, LIST),
  },
  {
    name: 'an unsupported MCP-Protocol-Version on a GET',
    want: { status: 400, code: -32000 },
    run: (url, h) => send(url, 'GET', { ...h, accept: 'text/event-stream', 'mcp-protocol-version': '1999-01-01' }),
  },
  {
    name: 'a batch in a 2025-11-25 session',
    want: { status: 400, code: -32600 },
    run: (url, h) => send(url, 'POST', h, `[${LIST}]`),
  },
  {
    name: 'an empty batch',
    want: { status: 400, code: -32600 },
    run: (url, h) => send(url, 'POST', h, '[]'),
  },
  {
    name: 'Accept: application/json only',
    want: { status: 406, code: -32000 },
    run: (url, h) => send(url, 'POST', { ...h, accept: 'application/json' }, LIST),
  },
  {
    name: 'Accept: application/json only on initialize',
    want: { status: 406, code: -32000 },
    run: (url) => send(url, 'POST', { accept: 'application/json' }, INIT),
  },
  ...['42', 'null', '"text"', '{}', '{"jsonrpc":"2.0"}'].map((body) => ({
    name: `the non-message body ${body}`,
    want: { status: 400, code: -32600 },
    run: (url: string, h: Record<string, string>) => send(url, 'POST', h, body),
  })),
  {
    // One router answers a session id it does not know, whatever the request: the replay opened a session here.
    name: 'an initialize naming a session this server does not know',
    want: { status: 404, code: -32001 },
    run: (url, h) => send(url, 'POST', { ...h, 'mcp-session-id': 'no-such-session' }, INIT),
  },
  {
    name: 'a body that is not JSON',
    want: { status: 400, code: -32700 },
    run: (url, h) => send(url, 'POST', h, '{"jsonrpc":'),
  },
];

describe('serve and replay answer the Streamable HTTP rules alike', async () => {
  test.each(CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const serve = await startReferenceServer();
    const replay = await createReplayServer(golden, { pace: 'instant' });
    try {
      const fromServe = await c.run(serve.url, await session(serve.url));
      const fromReplay = await c.run(replay.url, await session(replay.url));
      expect({ serve: fromServe, replay: fromReplay }).toEqual({ serve: c.want, replay: c.want });
    } finally {
      await replay.close();
      await serve.close();
    }
  });
});
