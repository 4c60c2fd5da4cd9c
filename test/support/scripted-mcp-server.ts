import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A scripted MCP server for the careful client's tests: the handshake answered, every call and
// resumption handed to the test's script, every request kept with its time.

/** One request as the scripted server saw it. */
export interface Seen {
  readonly method: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly message: { id?: unknown; method?: string; params?: Record<string, unknown> } | undefined;
  readonly at: number;
  /** When the server finished its answer. */
  ended?: number;
}
export type Script = (seen: Seen, res: ServerResponse, nth: number) => void;

export const SSE = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
export const event = (message: unknown, id?: string): string =>
  `${id === undefined ? '' : `id: ${id}\n`}event: message\ndata: ${JSON.stringify(message)}\n\n`;
export const result = (id: unknown, text: string) => ({
  jsonrpc: '2.0',
  id,
  result: { content: [{ type: 'text', text }] },
});
export const progress = (token: unknown, n: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: token, progress: n, total: 3 },
});
export const tokenOf = (seen: Seen): unknown =>
  (seen.message?.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;

/** Servers still open, closed by {@link closeScripted}. */
const open = new Set<() => Promise<void>>();

/** Closes every scripted server (call it in afterEach). */
export async function closeScripted(): Promise<void> {
  for (const close of open) await close();
  open.clear();
}

/**
 * Serves `script` on 127.0.0.1: initialize (a new session id each time, s1, s2, ...) and
 * server/discover are answered here, other notifications get 202, a GET without Last-Event-ID gets
 * `standaloneGet` (default 405); every tools/call (numbered from 1) and resumption GET goes to
 * `script`. `seen` lists every request.
 */
export async function scripted(
  script: Script,
  standaloneGet: (res: ServerResponse) => void = (res) => void res.writeHead(405).end(),
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  let sessions = 0;
  let calls = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      let message: Seen['message'];
      try {
        message = body ? JSON.parse(body) : undefined;
      } catch {}
      const entry: Seen = { method: req.method ?? '', headers: req.headers, body, message, at: Date.now() };
      seen.push(entry);
      res.on('finish', () => {
        entry.ended = Date.now();
      });
      if (message?.method === 'initialize') {
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': `s${++sessions}` });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: {
              protocolVersion: '2025-11-25',
              capabilities: { tools: {} },
              serverInfo: { name: 'scripted', version: '1' },
            },
          }),
        );
      } else if (message?.method === 'server/discover') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: {
              supportedVersions: ['2026-07-28'],
              capabilities: { tools: {} },
              serverInfo: { name: 'scripted', version: '1' },
            },
          }),
        );
      } else if (req.method === 'POST' && message?.method !== 'tools/call') {
        res.writeHead(202).end();
      } else if (req.method === 'GET' && req.headers['last-event-id'] === undefined) {
        standaloneGet(res);
      } else script(entry, res, message?.method === 'tools/call' ? ++calls : 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.add(
    () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen };
}
