import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake server's `tools/call` behaves. */
export type FakeCallMode =
  /** One progress notification, then the stream ends without a result and without event ids. */
  | 'no-result'
  /** Progress 1 (with an event id and `retry: 50`), a graceful close, the rest after a `Last-Event-ID` GET. */
  | 'close-then-resume'
  /** Progress 1 (with an event id and `retry: 50`), then the connection is cut; the rest after a `Last-Event-ID` GET. */
  | 'drop-then-resume'
  /** Asks the client `sampling/createMessage` on the call's stream, answers with what the client sent. */
  | 'sampling'
  /** Progress 1, 2, 3 of 3 with the request's token, then the result, in one SSE response. */
  | 'progress'
  /** The same notifications in reverse order (3, 2, 1), then the result. */
  | 'progress-reversed'
  /** Progress 1 twice and never 2, then 3 and the result. */
  | 'progress-repeated'
  /** Progress 1 and 2, the result, then progress 3 after it. */
  | 'progress-after-result'
  /** Asks the client `elicitation/create` on the standalone GET stream; the call ends only when that is answered. */
  | 'standalone-elicitation';

/** A minimal Streamable HTTP MCP server, written here to misbehave on purpose. */
export interface FakeMcpServer {
  readonly url: string;
  /** Request heads as received (method, headers). */
  readonly requests: { method: string; headers: IncomingMessage['headers']; body: string }[];
  close(): Promise<void>;
}

const sse = (id: string | undefined, message: unknown, retry?: number): string =>
  `${retry !== undefined ? `retry: ${retry}\n` : ''}${id !== undefined ? `id: ${id}\n` : ''}data: ${JSON.stringify(message)}\n\n`;

/**
 * Starts the fake server on 127.0.0.1:0. It answers initialize, initialized and tools/list (tool
 * `work`), and `tools/call` as `mode` says; `status` makes every request fail with that status.
 */
export async function startFakeMcpServer(mode: FakeCallMode, status?: number): Promise<FakeMcpServer> {
  const requests: FakeMcpServer['requests'] = [];
  let pendingAnswer: ((body: unknown) => void) | undefined;
  const handle = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    requests.push({ method: req.method ?? '', headers: req.headers, body });
    if (status !== undefined) {
      res.writeHead(status, { 'content-type': 'text/plain' }).end('no credentials');
      return;
    }
    const head = { 'content-type': 'text/event-stream', 'mcp-session-id': 'fake-1' };
    if (req.method === 'GET' && mode === 'standalone-elicitation' && req.headers['last-event-id'] === undefined) {
      res.writeHead(200, head);
      const ask = { message: 'Name?', requestedSchema: { type: 'object', properties: {} } };
      res.write(sse(undefined, { jsonrpc: '2.0', id: 'ask-2', method: 'elicitation/create', params: ask }));
      return;
    }
    if (req.method === 'GET') {
      res.writeHead(200, head);
      res.end(
        sse('e2', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 2 } }) +
          sse('e3', { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'resumed' }] } }),
      );
      return;
    }
    if (req.method === 'DELETE') {
      res.writeHead(200).end();
      return;
    }
    const message = JSON.parse(body) as { id?: number; method?: string; result?: unknown };
    if (message.method === undefined && message.id !== undefined) {
      pendingAnswer?.(message.result);
      res.writeHead(202).end();
      return;
    }
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const reply = (result: unknown): void => {
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'fake-1' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    };
    if (message.method === 'initialize') {
      reply({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'fake', version: '1' } });
    } else if (message.method === 'tools/list') {
      reply({ tools: [{ name: 'work', inputSchema: { type: 'object' } }] });
    } else if (message.method !== 'tools/call') {
      // Any other method (the era probe's server/discover, say) is unknown here, as on a 2025 server.
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'fake-1' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }));
    } else if (mode === 'standalone-elicitation') {
      res.writeHead(200, head).flushHeaders();
      pendingAnswer = (answer) =>
        res.end(sse(undefined, { jsonrpc: '2.0', id: message.id, result: { content: [], answer } }));
    } else if (mode === 'no-result') {
      res.writeHead(200, head);
      res.end(
        sse(undefined, {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 't', progress: 1 },
        }),
      );
    } else if (mode === 'drop-then-resume') {
      res.writeHead(200, head);
      res.write(
        sse(
          'e1',
          { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } },
          50,
        ),
      );
      setTimeout(() => res.socket?.destroy(), 20);
    } else if (mode.startsWith('progress')) {
      const token = (message as { params?: { _meta?: { progressToken?: unknown } } }).params?._meta?.progressToken;
      const notify = (i: number): string =>
        sse(undefined, {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: token, progress: i, total: 3, message: `step ${i}/3` },
        });
      const result = sse(undefined, {
        jsonrpc: '2.0',
        id: message.id,
        result: { content: [{ type: 'text', text: 'counted to 3' }] },
      });
      const events: Record<string, string[]> = {
        progress: [notify(1), notify(2), notify(3), result],
        'progress-reversed': [notify(3), notify(2), notify(1), result],
        'progress-repeated': [notify(1), notify(1), notify(3), result],
        'progress-after-result': [notify(1), notify(2), result, notify(3)],
      };
      res.writeHead(200, head);
      res.end((events[mode] ?? []).join(''));
    } else if (mode === 'close-then-resume') {
      res.writeHead(200, head);
      res.end(
        sse(
          'e1',
          { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } },
          50,
        ),
      );
    } else {
      res.writeHead(200, head);
      res.write(
        sse(undefined, {
          jsonrpc: '2.0',
          id: 'ask-1',
          method: 'sampling/createMessage',
          params: { messages: [], maxTokens: 5 },
        }),
      );
      pendingAnswer = (answer) =>
        res.end(
          sse(undefined, {
            jsonrpc: '2.0',
            id: message.id,
            result: { content: [{ type: 'text', text: JSON.stringify(answer) }] },
          }),
        );
    }
  };
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => handle(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
