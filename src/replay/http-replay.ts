import { randomBytes } from 'node:crypto';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { isJsonRpcMessage } from '../transcript/json-rpc.js';
import { TRANSPORT_HEADERS } from '../transcript/normalize.js';
import { chunkingSink, isAdversarial } from './chunking.js';
import { answerBatch } from './http-batch.js';
import { type IncomingRequest, type Outgoing, type ResponseSink, writeOut } from './http-exchange.js';
import { acceptsOf, type HttpRuleOptions, refuseRequest, sendError } from './http-guards.js';
import { JSON_HEADERS } from './json-rpc-error.js';
import { type LiveEvent, streamOffsets } from './live-event.js';
import type { ModernHttpReplay } from './modern-http-replay.js';
import { frameEvent } from './reframe.js';
import { type ReplayCall, type ReplayEngine, type ReplaySession, SESSION_LIMIT } from './replay-engine.js';
import type { ReplayEvent, ReplayExchange } from './replay-plan.js';
import type { ReplayReport } from './replay-report.js';

interface HttpStream {
  readonly call: ReplayCall;
  /** This stream's number: a re-framed stream's event ids are `<number>-<event>`. */
  readonly number: number;
  /** The recorded framing and bytes (as opposed to events re-framed for the client's `Accept`). */
  readonly exact: boolean;
  /**
   * How many of the call's events were played. What a resuming client missed is made again from
   * them (stamping is deterministic), so a finished stream, kept for resumption, holds no bytes.
   */
  played: number;
  readonly primingId: string | undefined;
  sink: ResponseSink | undefined;
  finished: boolean;
}

interface HttpSession {
  readonly session: ReplaySession;
  readonly streams: HttpStream[];
  standalone: ResponseSink | undefined;
}

const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
};

/**
 * The Streamable HTTP adapter of the {@link ReplayEngine}, shared by the loopback server and the
 * msw handlers: enforces the transport's rules, hands out session ids, and frames what the engine
 * emits as SSE or JSON per the client's `Accept` (recorded bytes unchanged when the golden was
 * recorded over HTTP in that framing), with `Last-Event-ID` resumption.
 */
export class HttpReplay {
  private readonly sessions = new Map<string, HttpSession>();
  private shared: HttpSession | undefined;
  private sessionCount = 0;
  private streamCount = 0;

  constructor(
    readonly engine: ReplayEngine,
    private readonly rules: HttpRuleOptions = {},
    /** Serves the modern era (2026-07-28) from the modern goldens, when there are any. */
    private readonly modern?: ModernHttpReplay,
  ) {}

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
    for (const state of [...this.sessions.values(), ...(this.shared ? [this.shared] : [])]) this.endSession(state);
    this.sessions.clear();
    this.engine.close();
  }

  /** Handles one HTTP request; never throws, whatever the request holds. */
  handle(request: IncomingRequest, sink: ResponseSink): void {
    try {
      this.dispatch(request, sink);
    } catch (error) {
      sendError(
        sink,
        500,
        -32603,
        `Internal error in mcp-golden replay: ${(error as Error).message}. Please report it.`,
      );
    }
  }

  private dispatch(request: IncomingRequest, sink: ResponseSink): void {
    if (refuseRequest(request, sink, this.rules)) return;
    if (this.modern?.claims(request)) {
      this.modern.handle(request, sink);
      return;
    }
    if (request.httpMethod === 'GET') {
      this.handleGet(request, sink);
      return;
    }
    if (request.httpMethod === 'DELETE') {
      this.handleDelete(request, sink);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(request.body);
    } catch {
      // The parser's message quotes the body: it is not repeated back.
      sendError(sink, 400, -32700, 'Parse error: the request body is not valid JSON. Send one JSON-RPC message.');
      return;
    }
    if (Array.isArray(value)) {
      const state = this.lookup(request, sink);
      if (state) answerBatch(this.engine, state.session, value, sink, this.sessionHeader(state));
      return;
    }
    if (!isJsonRpcMessage(value)) {
      const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
      sendError(
        sink,
        400,
        -32600,
        `Invalid Request: expected a JSON-RPC 2.0 message object (with "jsonrpc":"2.0" and a method, result or error), got ${got === 'object' ? 'an object that is not one' : got}.`,
      );
      return;
    }
    const state = value.method === 'initialize' ? this.initializing() : this.lookup(request, sink);
    if (!state) return;
    this.post(state, value, request, sink);
  }

  private post(state: HttpSession, message: JsonRpcMessage, request: IncomingRequest, sink: ResponseSink): void {
    const answer = this.engine.receive(state.session, message, 'POST');
    if (answer.kind === 'accepted') {
      const recorded = answer.exchange?.transport === 'http' ? answer.exchange : undefined;
      this.engine.later(state.session, recorded?.headOffsetUs ?? 0, () => {
        sink.head(recorded?.status ?? 202, recorded ? this.responseHeaders(recorded, state) : {});
        sink.end();
      });
      return;
    }
    if (answer.kind === 'unmatched') {
      sink.head(200, { ...JSON_HEADERS, ...this.sessionHeader(state) });
      sink.write(answer.text);
      sink.end();
      return;
    }
    if (message.method === 'initialize') this.register(state, answer.call.exchange);
    this.stream(state, answer.call, request, sink);
  }

  /** A session for an `initialize`; registered once the answer is known to use sessions. */
  private initializing(): HttpSession {
    return { session: this.engine.openSession('http'), streams: [], standalone: undefined };
  }

  private register(state: HttpSession, exchange: ReplayExchange): void {
    // A golden recorded over HTTP without a session id came from a stateless server: so is the replay.
    const stateless = exchange.transport === 'http' && !('mcp-session-id' in (exchange.responseHeaders ?? {}));
    if (stateless) {
      const shared = this.sharedSession();
      shared.session.version = state.session.version;
      return;
    }
    // Unguessable, as the spec asks: another client must not be able to end or join this session.
    state.session.id = `replay-session-${++this.sessionCount}-${randomBytes(12).toString('hex')}`;
    this.sessions.set(state.session.id, state);
    if (this.sessions.size > SESSION_LIMIT) {
      const [id, oldest] = this.sessions.entries().next().value as [string, HttpSession];
      this.endSession(oldest);
      this.sessions.delete(id);
    }
  }

  private sharedSession(): HttpSession {
    this.shared ??= { session: this.engine.openSession('http'), streams: [], standalone: undefined };
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
    const state = this.sessions.get(id);
    if (!state) {
      sendError(sink, 404, -32001, `Session not found: "${id.slice(0, 100)}". Send initialize to start a new session.`);
    }
    return state;
  }

  private sessionHeader(state: HttpSession): Record<string, string> {
    return state.session.id ? { 'mcp-session-id': state.session.id } : {};
  }

  /** The recorded response headers, with the live session id where one was recorded, and today's date. */
  private responseHeaders(exchange: ReplayExchange, state: HttpSession | undefined): Record<string, string> {
    const headers: Record<string, string> = {};
    const recorded = exchange.responseHeaders ?? {};
    for (const name in recorded) {
      const value = recorded[name] as string;
      if (TRANSPORT_HEADERS.has(name)) continue;
      if (name === 'mcp-session-id') {
        if (state?.session.id) headers[name] = state.session.id;
      } else headers[name] = name === 'date' ? httpDate() : value;
    }
    return headers;
  }

  private stream(state: HttpSession, call: ReplayCall, request: IncomingRequest, sink: ResponseSink): void {
    const exchange = call.exchange;
    const accepts = acceptsOf(request.headers.accept);
    const recorded = exchange.transport === 'http' && exchange.responseHeaders !== undefined;
    const exact =
      recorded && (exchange.bodyKind === 'sse' ? accepts.sse : exchange.bodyKind === 'json' ? accepts.json : true);
    const framing = exact ? (exchange.bodyKind === 'sse' ? 'sse' : 'json') : accepts.sse ? 'sse' : 'json';
    const headers = exact
      ? this.responseHeaders(exchange, state)
      : { ...(framing === 'sse' ? SSE_HEADERS : JSON_HEADERS), ...this.sessionHeader(state) };
    const status = exact ? (exchange.status ?? 200) : 200;
    const headUs = exact ? exchange.headOffsetUs : 0;
    if (framing === 'json') {
      // One body: everything (exact), or only the answer (notifications have no place in a JSON body).
      const events = exact ? call.events : call.events.filter((e) => e.message && !('method' in e.message));
      const at = Math.max(headUs, ...events.map((e) => e.offsetUs));
      this.engine.play(
        call,
        [at],
        () => {
          sink.head(status, headers);
          for (const event of events) {
            const out = exact ? event.bytes() : frameEvent(event, 'json');
            if (out !== undefined) writeOut(sink, out);
          }
          call.finished = true;
          sink.end();
        },
        () => undefined,
      );
      return;
    }
    const number = ++this.streamCount;
    const primed = isAdversarial(this.engine.options.chunking) && this.engine.options.chunking?.primingEvents;
    const live: HttpStream = {
      call,
      number,
      exact,
      played: 0,
      primingId: primed ? `primed-${number}` : undefined,
      sink: undefined,
      finished: false,
    };
    state.streams.push(live);
    // A long session keeps only recent finished streams (they are there for resumption).
    const oldest = state.streams.length > 64 ? state.streams.findIndex((s) => s.finished) : -1;
    if (oldest >= 0) state.streams.splice(oldest, 1);
    const out = this.sseSink(sink, live.primingId);
    this.engine.play(
      call,
      streamOffsets(call.events, headUs),
      (i) => {
        if (i === 0) {
          out.head(status, headers);
          this.attach(live, out, undefined);
          return;
        }
        live.played = i;
        const sent = outgoing(live, i - 1);
        if (sent !== undefined && live.sink) writeOut(live.sink, sent.out);
      },
      () => {
        if (call.cancelled || (exact && exchange.end !== 'complete')) return;
        call.finished = true;
        live.finished = true;
        live.sink?.end();
        live.sink = undefined;
      },
      () => live.sink?.flush?.(),
    );
  }

  /** Connects a client connection to a live stream, sending what it missed after `lastEventId`. */
  private attach(stream: HttpStream, sink: ResponseSink, lastEventId: string | undefined): void {
    stream.sink = sink;
    sink.onClose(() => {
      if (stream.sink === sink) stream.sink = undefined;
    });
    if (lastEventId !== undefined) {
      for (let index = sentIndex(stream, lastEventId) + 1; index < stream.played; index++) {
        const missed = outgoing(stream, index);
        if (missed !== undefined) writeOut(sink, missed.out);
      }
    }
    if (stream.finished) {
      sink.end();
      stream.sink = undefined;
    }
  }

  /** The sink SSE events go through: the client's own, or a re-chunking wrapper around it. */
  private sseSink(sink: ResponseSink, primingId: string | undefined): ResponseSink {
    const chunking = this.engine.options.chunking;
    return chunking && isAdversarial(chunking) ? chunkingSink(sink, chunking, primingId) : sink;
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
        ? this.responseHeaders(exchange, state)
        : { ...SSE_HEADERS, ...this.sessionHeader(state) };
    const out = this.sseSink(sink, stream.primingId);
    out.head(200, headers);
    this.attach(stream, out, lastEventId);
  }

  /** The standalone GET stream: where server-initiated messages go. */
  private openStandalone(state: HttpSession, sink: ResponseSink): void {
    state.standalone?.end();
    sink.head(200, { ...SSE_HEADERS, ...this.sessionHeader(state) });
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
      sendError(sink, 404, -32001, `Session not found: "${String(id).slice(0, 100)}".`);
      return;
    }
    this.endSession(state);
    this.sessions.delete(id);
    this.engine.later(null, recorded?.headOffsetUs ?? 0, () => {
      sink.head(recorded?.status ?? 200, recorded ? this.responseHeaders(recorded, undefined) : {});
      sink.end();
    });
  }

  private endSession(state: HttpSession): void {
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

let dateSecond = -1;
let dateText = '';

/** Now as an HTTP `date` header, formatted once a second (as Node's own server does): it names whole seconds. */
function httpDate(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(second * 1000).toUTCString();
  }
  return dateText;
}

/**
 * The SSE id and the bytes of a stream's `index`th event as the stream sends it: the recorded bytes
 * with the live id and token, or the event re-framed with an id of this stream's; `undefined` for an
 * event a re-framed stream leaves out.
 */
function outgoing(stream: HttpStream, index: number): { id: string | undefined; out: Outgoing } | undefined {
  const event = stream.call.events[index] as LiveEvent;
  if (stream.exact) return { id: event.eventId, out: event.bytes() };
  const text = frameEvent(event, 'sse');
  if (text === undefined) return undefined;
  const id = `${stream.number}-${index + 1}`;
  return { id, out: `id: ${id}\n${text}` };
}

/** Index of the played event the stream sent with SSE id `id`; -1 when it sent none. */
function sentIndex(stream: HttpStream, id: string): number {
  if (stream.exact) {
    for (let index = 0; index < stream.played; index++) {
      if (stream.call.events[index]?.eventId === id) return index;
    }
    return -1;
  }
  const prefix = `${stream.number}-`;
  if (!id.startsWith(prefix) || !/^[1-9]\d*$/.test(id.slice(prefix.length))) return -1;
  const index = Number(id.slice(prefix.length)) - 1;
  return index < stream.played && outgoing(stream, index) !== undefined ? index : -1;
}
