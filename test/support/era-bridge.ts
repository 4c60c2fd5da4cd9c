import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { paramHeadersOf, withEnvelope } from '../../src/record/modern-era.js';
import type { JsonRpcMessage } from '../../src/transcript/frame-content.js';
import { ENVELOPE_KEYS, modernHeaders } from '../../src/transcript/modern-envelope.js';
import { SseParser } from '../../src/transcript/sse.js';

/** Which way a bridge translates: the client's era to the upstream's. */
export type BridgeWay = 'modern-to-legacy' | 'legacy-to-modern';

/** How a bridge misbehaves, or `none` for a faithful one. */
export type BridgeFault =
  | 'none'
  // modern client → legacy upstream: a client's hang-up is not turned into notifications/cancelled
  | 'ignore-hang-up'
  // modern client → legacy upstream: notifications/cancelled carries the client's id, not the upstream's
  | 'cancel-client-id'
  // legacy client → modern upstream: notifications/cancelled is answered 202 and dropped (the upstream stream stays open)
  | 'ignore-cancel'
  // legacy client → modern upstream: requests go on with the envelope but without Mcp-Name
  | 'drop-mcp-name'
  // legacy client → modern upstream: no Mcp-Param-* headers (the tools' x-mcp-header marks are ignored)
  | 'no-param-headers';

/** A running era bridge. */
export interface EraBridge {
  readonly url: string;
  close(): Promise<void>;
}

type Message = JsonRpcMessage & { id?: string | number; params?: Record<string, unknown> };

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

/** `params._meta` without the modern envelope's keys (a 2025 upstream gets only the progress token). */
function withoutEnvelope(message: Message): Message {
  const meta = message.params?._meta as Record<string, unknown> | undefined;
  if (!meta) return message;
  const kept = Object.fromEntries(
    Object.entries(meta).filter(([k]) => !(Object.values(ENVELOPE_KEYS) as string[]).includes(k)),
  );
  const { _meta: _, ...params } = message.params ?? {};
  return { ...message, params: Object.keys(kept).length > 0 ? { ...params, _meta: kept } : params };
}

/** Adds `resultType: complete` to a 2025 result, as a 2026-07-28 client expects. */
function asModern(message: Message): Message {
  const result = (message as { result?: Record<string, unknown> }).result;
  return result && !('resultType' in result)
    ? ({ ...message, result: { ...result, resultType: 'complete' } } as Message)
    : message;
}

/**
 * Relays the upstream's answer (`upstream`) to `res`, each message mapped by `map` (an SSE stream
 * event by event, as it arrives; a JSON body whole).
 */
async function relay(upstream: Response, res: ServerResponse, map: (m: Message) => Message): Promise<void> {
  const sse = (upstream.headers.get('content-type') ?? '').includes('text/event-stream');
  if (!sse || !upstream.body) {
    const text = await upstream.text();
    let out = text;
    try {
      out = JSON.stringify(map(JSON.parse(text) as Message));
    } catch {}
    res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(out);
    return;
  }
  res.writeHead(upstream.status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  const parser = new SseParser();
  const reader = upstream.body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      for (const block of parser.push(value)) {
        if (!block.data) continue;
        res.write(`event: message\ndata: ${JSON.stringify(map(JSON.parse(block.data) as Message))}\n\n`);
      }
    }
  } catch {
    // The upstream stream was closed on purpose (a cancel) or broke: end the client's too.
  }
  res.end();
}

/**
 * A minimal gateway between protocol eras, for testing the check's mixed-era rows: a 2026-07-28
 * client in front of a 2025 upstream (one upstream session, ids of its own, a client's closed
 * stream sent on as `notifications/cancelled` with the upstream's id), or a 2025 client in front of
 * a modern-only upstream (the handshake answered by the bridge, each request sent on with the
 * envelope and `Mcp-*` headers, `notifications/cancelled` turned into a closed upstream stream).
 */
export async function startEraBridge(
  upstreamUrl: string,
  way: BridgeWay,
  fault: BridgeFault = 'none',
): Promise<EraBridge> {
  let upstreamSession: Promise<string> | undefined;
  let nextUpstreamId = 1000;
  let sessions = 0;
  const running = new Map<string, AbortController>();
  /** Each tool's `x-mcp-header` arguments, from the upstream's own tools/list (asked once). */
  let paramHeaders: Promise<Map<string, Record<string, string>>> | undefined;
  const paramHeadersFor = async (tool: unknown): Promise<Record<string, string>> => {
    paramHeaders ??= (async () => {
      const list = withEnvelope({ jsonrpc: '2.0', id: 'bridge-tools', method: 'tools/list' }, { tool: '' });
      const answer = (await (await post(list, modernHeaders(list))).json()) as { result?: { tools?: unknown[] } };
      return new Map((answer.result?.tools ?? []).map((t) => [(t as { name: string }).name, paramHeadersOf(t)]));
    })();
    return (await paramHeaders).get(String(tool)) ?? {};
  };
  const post = (body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> =>
    fetch(upstreamUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
      ...(signal && { signal }),
    });
  /** The bridge's one 2025 session on the upstream, opened on first use. */
  const legacySession = (): Promise<string> => {
    upstreamSession ??= (async () => {
      const init = await post({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'era-bridge', version: '1' } },
      });
      const id = init.headers.get('mcp-session-id') ?? '';
      await init.arrayBuffer();
      const headers = { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
      await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).arrayBuffer();
      return id;
    })();
    return upstreamSession;
  };

  const modernToLegacy = async (req: IncomingMessage, res: ServerResponse, message: Message): Promise<void> => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    if (message.method === 'server/discover') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: message.id,
          result: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, resultType: 'complete' },
        }),
      );
      return;
    }
    const session = await legacySession();
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const clientId = message.id;
    const upstreamId = nextUpstreamId++;
    const controller = new AbortController();
    res.on('close', () => {
      if (res.writableFinished || fault === 'ignore-hang-up') return;
      const requestId = fault === 'cancel-client-id' ? clientId : upstreamId;
      void post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } }, headers)
        .then((r) => r.arrayBuffer())
        .catch(() => undefined)
        .finally(() => controller.abort());
    });
    const upstream = await post({ ...withoutEnvelope(message), id: upstreamId }, headers, controller.signal);
    await relay(upstream, res, (m) => asModern('method' in m && m.method !== undefined ? m : { ...m, id: clientId }));
  };

  const legacyToModern = async (req: IncomingMessage, res: ServerResponse, message: Message): Promise<void> => {
    if (req.method === 'GET') {
      res.writeHead(405).end();
      return;
    }
    if (req.method === 'DELETE') {
      res.writeHead(200).end();
      return;
    }
    if (message.method === 'initialize') {
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': `bridge-session-${++sessions}` }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: message.id,
          result: {
            protocolVersion: '2025-11-25',
            capabilities: { tools: {} },
            serverInfo: { name: 'era-bridge', version: '1' },
          },
        }),
      );
      return;
    }
    if (message.id === undefined) {
      if (message.method === 'notifications/cancelled' && fault !== 'ignore-cancel') {
        running.get(`${req.headers['mcp-session-id']}|${JSON.stringify(message.params?.requestId)}`)?.abort();
      }
      res.writeHead(202).end();
      return;
    }
    const modern = withEnvelope(message, { tool: '' }) as Message;
    // Ids are unique per client session only: several clients may use id 1 at once.
    const key = `${req.headers['mcp-session-id']}|${JSON.stringify(message.id)}`;
    const controller = new AbortController();
    running.set(key, controller);
    try {
      const marked = fault === 'no-param-headers' ? {} : await paramHeadersFor(message.params?.name);
      const headers = modernHeaders(modern, message.method === 'tools/call' ? marked : {});
      if (fault === 'drop-mcp-name') delete headers['mcp-name'];
      const upstream = await post(modern, headers, controller.signal);
      await relay(upstream, res, (m) => m);
    } catch {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    } finally {
      running.delete(key);
    }
  };

  const server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      const message = (text ? JSON.parse(text) : {}) as Message;
      await (way === 'modern-to-legacy' ? modernToLegacy : legacyToModern)(req, res, message);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
