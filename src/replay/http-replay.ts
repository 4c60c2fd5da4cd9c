import { randomFillSync } from 'node:crypto';
import { refusalAnswer, unknownSession, writeAnswer } from '../http/answering-era.js';
import type { FrontDoorOptions } from '../http/front-door.js';
import { type HttpSides, routeHttp, type SessionPeer } from '../http/http-router.js';
import { MCP_PROTOCOL_VERSIONS, protocolVersionRefusal } from '../http/mcp-http-rules.js';
import type { ReadRequest } from '../http/read-request.js';
import { SessionTable } from '../http/session-table.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { isJsonRpcMessage } from '../transcript/json-rpc.js';
import { crossGoldens } from './cross-era.js';
import { GoldenPeer, splitGoldensByEra } from './golden-peer.js';
import { answerBatch } from './http-batch.js';
import type { IncomingRequest, ResponseSink } from './http-exchange.js';
import {
  attach,
  type HttpSession,
  responseHeaders,
  SSE_HEADERS,
  sentIndex,
  sessionHeader,
  sseSink,
  streamCall,
} from './http-stream.js';
import { JSON_HEADERS, sendError } from './json-rpc-error.js';
import { frameEvent } from './reframe.js';
import { ReplayEngine, type ReplayOptions, SESSION_LIMIT } from './replay-engine.js';
import type { GoldenInput, ReplayEvent } from './replay-plan.js';
import type { ReplayReport } from './replay-report.js';
import type { StandaloneStream, UnmatchedFallback } from './unmatched-fallback.js';

/** Random bytes in a session id: 96 bits, unguessable. */
const SESSION_ID_BYTES = 12;
/** Bytes drawn from the CSPRNG in one call and handed out to the next 256 sessions, as `randomUUID` does. */
const sessionEntropy = Buffer.alloc(SESSION_ID_BYTES * 256);
let sessionEntropyAt = sessionEntropy.length;

/** Fresh random hex for one session id: each byte is handed out once. */
function sessionSecret(): string {
  if (sessionEntropyAt === sessionEntropy.length) {
    randomFillSync(sessionEntropy);
    sessionEntropyAt = 0;
  }
  const hex = sessionEntropy.toString('hex', sessionEntropyAt, sessionEntropyAt + SESSION_ID_BYTES);
  sessionEntropyAt += SESSION_ID_BYTES;
  return hex;
}

/**
 * The Streamable HTTP adapter of the {@link ReplayEngine}, shared by the loopback server and the
 * msw handlers: enforces the transport's rules, hands out session ids, and frames what the engine
 * emits as SSE or JSON per the client's `Accept` (recorded bytes unchanged when the golden was
 * recorded over HTTP in that framing), with `Last-Event-ID` resumption.
 */
export class HttpReplay implements SessionPeer<ResponseSink, IncomingRequest> {
  /** The sessions by id: the least recently used one ends when a new one is past {@link SESSION_LIMIT}. */
  private readonly sessions = new SessionTable<HttpSession>(SESSION_LIMIT, undefined, (state) =>
    this.endSession(state),
  );
  private shared: HttpSession | undefined;
  private sessionCount = 0;
  private streamCount = 0;
  /** The body of each session's `initialize`, for the fallback's own handshake. */
  private readonly initializeBodies = new WeakMap<HttpSession, string>();
  /** `MCP-Protocol-Version` values served: the 2025-era versions and those the goldens hold. */
  private readonly versions: readonly string[];

  constructor(
    readonly engine: ReplayEngine,
    rules: FrontDoorOptions = {},
    /** Serves the modern era (2026-07-28) from the modern goldens, when there are any. */
    private readonly modern?: GoldenPeer,
    /**
     * False when every 2025 golden this side serves is a 2026-07-28 one re-framed: then the replay is
     * a stateless dual-era server (SDK v2's `legacy: 'stateless'`), whose GET and DELETE are `405`.
     */
    private readonly sessions2025 = true,
  ) {
    const recorded = engine.plan.exchanges.map((e) => e.protocolVersion).filter((v) => v !== '');
    this.versions = [...new Set([...MCP_PROTOCOL_VERSIONS, ...recorded])];
    this.sides = {
      legacy: this,
      modern,
      // A replay whose goldens answer no 2025 client is a 2026-07-28-only server.
      read: { legacy: modern && engine.plan.exchanges.length === 0 ? 'reject' : 'serve' },
      door: rules,
      // The report lists the 2026-07-28 refusals, as a 2026-07-28 client's requests are each their own exchange.
      refused: (read, value, request, refusal) => {
        if (read.era !== 'modern' && refusal.status !== 405) return;
        const message = request.httpMethod === 'POST' && isJsonRpcMessage(value) ? value : undefined;
        modern?.engine.note(null, request.httpMethod, message, undefined, refusal.message);
      },
    };
  }

  private unmatched: UnmatchedFallback | undefined;

  /** Answers the requests no golden matches instead of the engine's refusal, when set: both eras' requests. */
  get fallback(): UnmatchedFallback | undefined {
    return this.unmatched;
  }

  set fallback(fallback: UnmatchedFallback | undefined) {
    this.unmatched = fallback;
    if (this.modern) this.modern.fallback = fallback;
  }

  /** Everything received by either era's side. */
  report(): ReplayReport {
    const legacy = this.engine.report();
    if (!this.modern) return legacy;
    const modern = this.modern.engine.report();
    return {
      requests: [...legacy.requests, ...modern.requests],
      unmatched: [...legacy.unmatched, ...modern.unmatched],
    };
  }

  /** Stops every stream and timer. */
  close(): void {
    this.modern?.close();
    for (const state of [...this.sessions.close(), ...(this.shared ? [this.shared] : [])]) this.endSession(state);
    this.engine.close();
  }

  /** Handles one HTTP request; never throws, whatever the request holds. */
  handle(request: IncomingRequest, sink: ResponseSink): void {
    try {
      void routeHttp(request, sink, this.sides);
    } catch (error) {
      sendError(
        sink,
        500,
        -32603,
        `Internal error in mcp-golden replay: ${(error as Error).message}. Please report it.`,
      );
    }
  }

  /** The replay's two sides under the one router: the goldens behind sessions, and per request. */
  private readonly sides: HttpSides<ResponseSink, IncomingRequest>;

  /** A replay whose 2025 goldens are all 2026-07-28 ones re-framed is a stateless dual-era server. */
  get keepsSessions(): boolean {
    return this.sessions2025 || !this.modern;
  }

  /** The open session `id` names; without one, the session every sessionless client shares (a stateless golden's). */
  session(id: string | undefined): { readonly version?: string | undefined } | undefined {
    if (id !== undefined) return this.sessions.get(id)?.session;
    return this.engine.plan.sessionless ? this.sharedSession().session : undefined;
  }

  /** Answers a 2025 request the router let through: a GET stream, a DELETE, a batch, or a message in its session. */
  answer(_read: ReadRequest, value: unknown, request: IncomingRequest, sink: ResponseSink): void {
    const message = value as JsonRpcMessage;
    if (request.httpMethod === 'POST' && Array.isArray(value)) {
      const state = this.lookup(request, sink);
      if (state) answerBatch(this.engine, state.session, value, sink, sessionHeader(state), request.body);
      return;
    }
    const initialize = request.httpMethod === 'POST' && message.method === 'initialize';
    const refusal = initialize
      ? undefined
      : protocolVersionRefusal(request.headers['mcp-protocol-version'], this.versions);
    if (refusal) sendError(sink, refusal.status, refusal.code, refusal.message);
    else if (request.httpMethod === 'GET') this.handleGet(request, sink);
    else if (request.httpMethod === 'DELETE') this.handleDelete(request, sink);
    else {
      const state = initialize ? this.initializing(message) : this.lookup(request, sink);
      if (state) this.post(state, message, request, sink);
    }
  }

  private post(state: HttpSession, message: JsonRpcMessage, request: IncomingRequest, sink: ResponseSink): void {
    if (this.fallback?.claims?.(state, message)) {
      // A cancel for a passed-through call, or the client's answer to the live server: the live server's.
      this.engine.note(state.session, 'POST', message, undefined, undefined, 'passed through to the live server');
      const initialize = this.initializeBodies.get(state);
      const standalone = this.standaloneWriter(state);
      this.fallback.forward({ session: state, sessionId: state.session.id, initialize, request, sink, standalone });
      return;
    }
    const answer = this.engine.receive(state.session, message, 'POST', request.body);
    if (answer.kind === 'accepted') {
      const recorded = answer.exchange?.transport === 'http' ? answer.exchange : undefined;
      this.engine.later(state.session, recorded?.headOffsetUs ?? 0, () => {
        sink.head(recorded?.status ?? 202, recorded ? responseHeaders(recorded, state.session.id) : {});
        sink.end();
      });
      return;
    }
    if (answer.kind === 'unmatched') {
      if (this.fallback && message.method !== 'initialize') {
        const initialize = this.initializeBodies.get(state);
        const standalone = this.standaloneWriter(state);
        this.fallback.forward({ session: state, sessionId: state.session.id, initialize, request, sink, standalone });
        return;
      }
      // A session opened for an initialize nothing answers is never used again.
      if (message.method === 'initialize' && state !== this.shared) this.engine.endSession(state.session);
      sink.head(200, { ...JSON_HEADERS, ...sessionHeader(state) });
      sink.write(answer.text);
      sink.end();
      return;
    }
    if (message.method === 'initialize') {
      this.register(state);
      this.initializeBodies.set(state, request.body);
    }
    streamCall(this.engine, state, answer.call, request, sink, () => ++this.streamCount);
  }

  /**
   * The session an `initialize` runs in: the one shared by every sessionless client when the
   * golden that answers it came from a stateless server (recorded over HTTP without a session
   * id), else a new one, registered once answered.
   */
  private initializing(message: JsonRpcMessage): HttpSession {
    const exchange = this.engine.match(message, 'http');
    const stateless = exchange?.transport === 'http' && !('mcp-session-id' in (exchange.responseHeaders ?? {}));
    if (stateless) return this.sharedSession();
    return this.newSession();
  }

  private newSession(): HttpSession {
    return { session: this.engine.openSession('http'), streams: [], standalone: undefined, lastSeen: 0, open: 0 };
  }

  private register(state: HttpSession): void {
    if (state === this.shared) return;
    // Unguessable, as the spec asks: another client must not be able to end or join this session.
    state.session.id = `replay-session-${++this.sessionCount}-${sessionSecret()}`;
    // Every replay session counts as idle: room is always made.
    this.sessions.makeRoom();
    this.sessions.set(state.session.id, state);
  }

  private sharedSession(): HttpSession {
    this.shared ??= this.newSession();
    return this.shared;
  }

  /** The session a request belongs to; answers `400`/`404` itself when there is none. */
  private lookup(request: IncomingRequest, sink: ResponseSink): HttpSession | undefined {
    const id = request.headers['mcp-session-id'];
    if (id === undefined) {
      if (this.engine.plan.sessionless) return this.sharedSession();
      sendError(sink, 400, -32000, 'Bad Request: Mcp-Session-Id header is required. Send initialize first.');
      return undefined;
    }
    // The router answered a session id it does not know.
    const state = this.sessions.get(id);
    if (state) this.sessions.touch(id, state);
    return state;
  }

  private handleGet(request: IncomingRequest, sink: ResponseSink): void {
    const state = this.lookup(request, sink);
    if (!state) return;
    const lastEventId = request.headers['last-event-id'];
    if (lastEventId === undefined) {
      this.engine.note(state.session, 'GET', undefined, undefined);
      this.openStandalone(state, sink);
      return;
    }
    const stream = state.streams.find((s) => s.primingId === lastEventId || sentIndex(s, lastEventId) >= 0);
    if (!stream) {
      const error = `Invalid Last-Event-ID "${lastEventId.slice(0, 100)}": no stream of this session sent it.`;
      this.engine.note(state.session, 'GET', undefined, undefined, error);
      sendError(sink, 400, -32000, error);
      return;
    }
    this.engine.note(state.session, 'GET', stream.call.exchange.message, stream.call.exchange);
    const exchange = stream.call.exchange;
    const headers =
      exchange.transport === 'http' && exchange.responseHeaders
        ? responseHeaders(exchange, state.session.id)
        : { ...SSE_HEADERS, ...sessionHeader(state) };
    const out = sseSink(this.engine, sink, stream.primingId);
    out.head(200, headers);
    attach(stream, out, lastEventId);
  }

  /** The session's standalone GET stream as a fallback writes to it (its live server's own messages), while the client has one open. */
  private standaloneWriter(state: HttpSession): StandaloneStream | undefined {
    const open = state.standalone;
    if (!open) return undefined;
    return {
      write(text) {
        if (state.standalone !== open) return;
        open.write(text);
        open.flush?.();
      },
      onClose: (listener) => open.onClose(listener),
    };
  }

  /** The standalone GET stream: where server-initiated messages go. */
  private openStandalone(state: HttpSession, sink: ResponseSink): void {
    state.standalone?.end();
    sink.head(200, { ...SSE_HEADERS, ...sessionHeader(state) });
    state.standalone = sink;
    const push = (event: ReplayEvent): void => {
      const text = frameEvent(event, 'sse');
      if (text !== undefined) sink.write(text);
    };
    state.session.push = push;
    for (const event of state.session.pending.splice(0)) push(event);
    sink.onClose(() => {
      if (state.standalone !== sink) return;
      state.standalone = undefined;
      state.session.push = undefined;
    });
  }

  private handleDelete(request: IncomingRequest, sink: ResponseSink): void {
    const id = request.headers['mcp-session-id'];
    const state = id === undefined ? undefined : this.sessions.get(id);
    const recorded = this.engine.plan.exchanges.find((e) => e.httpMethod === 'DELETE');
    this.engine.note(state?.session ?? null, 'DELETE', undefined, recorded);
    if (!state || id === undefined) {
      writeAnswer(sink, refusalAnswer(unknownSession(String(id)), null));
      return;
    }
    this.endSession(state);
    this.sessions.delete(id);
    this.engine.later(null, recorded?.headOffsetUs ?? 0, () => {
      sink.head(recorded?.status ?? 200, recorded ? responseHeaders(recorded, null) : {});
      sink.end();
    });
  }

  private endSession(state: HttpSession): void {
    this.fallback?.sessionEnded(state);
    this.engine.endSession(state.session);
    for (const stream of state.streams) {
      stream.finished = true;
      stream.sink?.end();
      stream.sink = undefined;
    }
    state.standalone?.end();
    state.standalone = undefined;
  }
}

/**
 * The HTTP replay of a set of goldens of either era: the legacy goldens behind sessions (the
 * Streamable HTTP adapter), the modern ones (2026-07-28) per request beside them, each request
 * routed by what it says of itself. Each side also holds the other era's goldens re-framed for its
 * clients ({@link crossGoldens}), after its own: a call recorded in one era answers a client of
 * the other where no golden of the client's era does, and the report names that answer's golden
 * as `(<version> golden, answered across eras)`.
 */
export function createHttpReplay(
  goldens: readonly GoldenInput[],
  options: ReplayOptions,
  rules: FrontDoorOptions,
): HttpReplay {
  const { legacy, modern } = splitGoldensByEra(goldens);
  // The handshake is made up only when no golden of that era answers it: one replay is one server.
  const legacyServed = [...legacy, ...crossGoldens(modern, 'legacy', legacy.length === 0)];
  // 2025 goldens are re-framed for 2026-07-28 clients when the first one comes.
  const modernServed = (): GoldenInput[] => [...modern, ...crossGoldens(legacy, 'modern', modern.length === 0)];
  const modernSide = goldens.length > 0 ? GoldenPeer.of(modernServed, options, modern.length > 0) : undefined;
  return new HttpReplay(new ReplayEngine(legacyServed, options), rules, modernSide, legacy.length > 0);
}
