import { createServer, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { type AnswerSink, nodeAnswerSink } from '../http/answering-era.js';
import { parseBody, takeNodeRequest } from '../http/front-door.js';
import { type HttpSides, routeHttp } from '../http/http-router.js';
import { closeNow, listenLoopback } from '../http/listen-loopback.js';
import { AuditLog } from './audit-log.js';
import { legacySide, type ServeRequest } from './legacy-side.js';
import { referencePeer } from './reference-peer.js';
import { TaskStore } from './tasks-extension.js';

export { BODY_WAIT_MS } from '../http/front-door.js';
export { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_TTL_MS } from './legacy-side.js';

/**
 * A progress token that asks the check's upstream to omit `X-Accel-Buffering: no` on the response
 * of that one call (`--check-tools` only): the check's spacing rows run with and without the
 * header through the same gateway, to say whether live streaming depends on it.
 */
export const NO_ACCEL_TOKEN_MARK = 'no-accel-header';

/** True when a JSON-RPC message (or batch) is a call whose progress token carries {@link NO_ACCEL_TOKEN_MARK}. */
function asksNoAccelHeader(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => {
    const token = (m as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta?.progressToken;
    return typeof token === 'string' && token.includes(NO_ACCEL_TOKEN_MARK);
  });
}

/** Options of {@link startReferenceServer}. */
export interface ReferenceServerOptions {
  /** TCP port; 0 picks a free one. @default 0 */
  readonly port?: number;
  /** Answer every request with one JSON body instead of SSE (the SDK then drops progress). @default false */
  readonly jsonResponse?: boolean;
  /** Send `X-Accel-Buffering: no` on SSE responses; `false` omits it, as a misconfigured server would. @default true */
  readonly accelHeader?: boolean;
  /** Interval of `: keepalive` SSE comments in ms; 0 sends none, which keeps goldens deterministic. @default 0 */
  readonly keepAliveMs?: number;
  /** `retry:` value in ms written into priming events: how long a client waits before resuming. @default 200 */
  readonly retryMs?: number;
  /** The log to write to; a new one by default. */
  readonly audit?: AuditLog;
  /** Make `progress` fail at this step with `isError: true`, after a final notification. @default unset */
  readonly failAtStep?: number;
  /** Also serve the gateway check's extra tools (`progress_tight`, `multibyte_output`, `input_round`, `silent_result`). @default false */
  readonly checkTools?: boolean;
  /** A session with no open request for this long is closed (its id then gets 404). @default 300000 */
  readonly sessionTtlMs?: number;
  /** Most sessions kept; a new one beyond it closes the least recently used idle one (503 when none is idle). @default 1000 */
  readonly maxSessions?: number;
  /** Browser origins allowed besides loopback ones (`*` for any); others get 403. @default [] */
  readonly allowedOrigins?: readonly string[];
  /** Called with transport-level errors (bad requests, stream conflicts). */
  readonly onError?: (error: Error) => void;
  /**
   * `reject`: a modern-only (2026-07-28) server, as SDK v2's `legacy: 'reject'`: a 2025 request
   * (initialize, anything without the per-request envelope) gets 400 with -32022, a GET or DELETE
   * 405. @default 'serve'
   */
  readonly legacy?: 'serve' | 'reject';
  /**
   * `reject`: a 2025-11-25-only server: a 2026-07-28 request (the per-request envelope, `Mcp-*`
   * headers, no session) is answered as the stateful `StreamableHTTPServerTransport` of SDK v1 1.32
   * answers it, 400 with -32000 "Bad Request: Server not initialized" (GET and DELETE too), because
   * it goes to that transport like any request without a session. @default 'serve'
   */
  readonly modern?: 'serve' | 'reject';
  /** What session ids start with, so two replicas never hand out the same id. @default 'session-' */
  readonly sessionIdPrefix?: string;
  /**
   * `enforce`: a 2026-07-28 `tools/call` whose `Mcp-Param-*` headers disagree with the arguments the
   * tool marks `x-mcp-header` gets 400 with -32020, as an SDK v2 server answers. `record`: the call
   * runs and its audit row keeps the headers it came with: the gateway check's upstream, whose
   * `Mcp-*` headers row judges them, so one missing header fails that row rather than every row
   * whose tool takes a `tag`. @default 'enforce'
   */
  readonly paramHeaders?: 'enforce' | 'record';
}

/** A running reference upstream on loopback HTTP. */
export interface ReferenceServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:40123/mcp`. */
  readonly url: string;
  readonly port: number;
  /** Every `tools/call` handled, across sessions. */
  readonly audit: AuditLog;
  /** Ids of the sessions currently open. */
  sessions(): string[];
  /** Closes every session and stops listening. */
  close(): Promise<void>;
}

/** Path of the MCP endpoint. */
export const MCP_PATH = '/mcp';

/** Drops `X-Accel-Buffering` from every head written on `res` (the SDK transport's, and the per-request side's). */
function withoutAccelHeader(res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const strip = (headers: unknown): unknown =>
    headers && typeof headers === 'object' && !Array.isArray(headers)
      ? Object.fromEntries(
          Object.entries(headers as OutgoingHttpHeaders).filter(([k]) => k.toLowerCase() !== 'x-accel-buffering'),
        )
      : headers;
  res.writeHead = ((...args: unknown[]) => writeHead(...args.map(strip))) as ServerResponse['writeHead'];
}

const internalError = (error: unknown): string =>
  JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: `Internal error: ${String(error)}` }, id: null });

/**
 * Starts the reference streaming server (tools `progress`, `long_output`, `chatty`) on
 * 127.0.0.1 over Streamable HTTP: stateful sessions, deterministic session and event ids, and
 * `Last-Event-ID` resumption; beside them, the modern era (2026-07-28): a request with the
 * per-request envelope or `Mcp-*` headers is served on its own, with the same tools and audit.
 *
 * @example
 * const upstream = await startReferenceServer({ port: 0 })
 * console.log(upstream.url) // http://127.0.0.1:PORT/mcp
 * await upstream.close()
 */
export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const audit = options.audit ?? new AuditLog();
  // The tasks extension's tasks (2026-07-28), served with the check tools.
  const tasks = new TaskStore();
  const legacy = legacySide(options, audit);

  // The 2026-07-28 side: the era's rules answer before the reference tools do.
  const modernPeer = referencePeer({
    audit,
    failAtStep: options.failAtStep,
    checkTools: options.checkTools ?? false,
    jsonResponse: options.jsonResponse ?? false,
    accelHeader: options.accelHeader ?? true,
    tasks,
    enforceParamHeaders: options.paramHeaders !== 'record',
  });

  // One router over the two peers: the SDK v1 transport behind sessions (2025), the reference tools per request.
  const sides: HttpSides<AnswerSink, ServeRequest> = {
    legacy,
    modern: modernPeer,
    read: {
      legacy: options.legacy === 'reject' ? 'reject' : 'serve',
      modern: options.modern === 'reject' ? 'reject' : 'serve',
    },
    door: { allowedOrigins: options.allowedOrigins ?? [] },
  };
  const failed = (res: ServerResponse, error: unknown): void => {
    options.onError?.(error instanceof Error ? error : new Error(String(error)));
    if (res.headersSent) res.destroy();
    else res.writeHead(500, { 'content-type': 'application/json' }).end(internalError(error));
  };

  const http = createServer((req, res) => {
    if (options.accelHeader === false) withoutAccelHeader(res);
    takeNodeRequest(req, res, { path: MCP_PATH, ...sides.door }, (request) => {
      // The check's upstream omits the header for the calls that ask it to (see NO_ACCEL_TOKEN_MARK).
      const asks = options.checkTools && options.accelHeader !== false && request.body.includes(NO_ACCEL_TOKEN_MARK);
      if (asks && asksNoAccelHeader(parseBody(request.body))) withoutAccelHeader(res);
      Promise.resolve()
        .then(() => routeHttp({ ...request, req, res }, nodeAnswerSink(res), sides))
        .catch((error: unknown) => failed(res, error));
    });
  });
  const port = await listenLoopback(http, options.port);

  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    port,
    audit,
    sessions: () => legacy.ids(),
    async close() {
      tasks.close();
      await legacy.close();
      await closeNow(http);
    },
  };
}
