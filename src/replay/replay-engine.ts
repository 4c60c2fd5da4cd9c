import type { Transcript } from '../transcript/frame.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { TRANSPORT_HEADERS } from '../transcript/normalize.js';
import { chunkingSink, isAdversarial } from './chunking.js';
import { JSON_HEADERS, jsonRpcError } from './json-rpc-error.js';
import { explainUnmatched, findMatch } from './matching.js';
import { paceInOrder } from './pacing.js';
import type {
  IncomingRequest,
  ReplayOptions,
  ReplayReport,
  ReplayReportEntry,
  ResponseSink,
} from './replay-options.js';
import { reportUnmatched } from './replay-options.js';
import { buildReplayPlan, type ReplayEvent, type ReplayExchange, type ReplayPlan } from './replay-plan.js';
import { type LiveStamp, stampFrame } from './stamp.js';

interface LiveStream {
  readonly exchange: ReplayExchange;
  readonly liveId: unknown;
  readonly stamp: LiveStamp;
  readonly delivered: { id?: string; text: string }[];
  readonly timers: Set<NodeJS.Timeout>;
  /** Stops the paced delivery of the remaining frames. */
  stop?: () => void;
  sink: ResponseSink | undefined;
  finished: boolean;
  cancelled: boolean;
}

interface LiveSession {
  readonly id: string | null;
  readonly streams: LiveStream[];
  standalone: ResponseSink | undefined;
}

const isProgress = (event: ReplayEvent): boolean => event.message?.method === 'notifications/progress';

/**
 * The transport-independent replayer: matches requests to recorded exchanges, stamps the live id
 * and token into the recorded frames, paces them, and handles sessions, cancellation and
 * `Last-Event-ID` resumption the way the recorded server did.
 */
export class ReplayEngine {
  readonly plan: ReplayPlan;
  private readonly sessions = new Map<string | null, LiveSession>();
  private readonly received: ReplayReportEntry[] = [];
  private sessionCount = 0;
  private closed = false;

  constructor(
    goldens: readonly Transcript[],
    private readonly options: ReplayOptions = {},
  ) {
    this.plan = buildReplayPlan(goldens);
  }

  /** Everything received so far, unmatched requests listed separately. */
  report(): ReplayReport {
    const requests = [...this.received];
    return { requests, unmatched: requests.filter((r) => r.matched === null && r.error !== undefined) };
  }

  /** Stops every timer and ends every open stream. */
  close(): void {
    this.closed = true;
    for (const session of this.sessions.values()) this.endSession(session);
    this.sessions.clear();
  }

  /** Delay for a recorded offset under the pace option, in ms. */
  delayMs(offsetUs: number): number {
    const pace = this.options.pace ?? 'recorded';
    if (pace === 'instant') return 0;
    const scale = pace === 'recorded' ? 1 : pace.scale;
    return (offsetUs / 1000) * scale;
  }

  /** Handles one HTTP-style request. */
  handle(request: IncomingRequest, sink: ResponseSink): void {
    if (request.httpMethod === 'GET') {
      this.handleGet(request, sink);
      return;
    }
    if (request.httpMethod === 'DELETE') {
      this.handleDelete(request, sink);
      return;
    }
    if (request.httpMethod !== 'POST') {
      sink.head(405, { allow: 'GET, POST, DELETE', ...JSON_HEADERS });
      sink.write(jsonRpcError(null, -32000, `Method not allowed: ${request.httpMethod}. Use POST, GET or DELETE.`));
      sink.end();
      return;
    }
    let message: JsonRpcMessage;
    try {
      message = JSON.parse(request.body) as JsonRpcMessage;
    } catch (error) {
      sink.head(400, JSON_HEADERS);
      sink.write(
        jsonRpcError(null, -32700, `Parse error: the request body is not JSON (${(error as Error).message}).`),
      );
      sink.end();
      return;
    }
    const session = this.sessionFor(request, message, sink);
    if (session === undefined) return;
    const isRequest = typeof message.method === 'string' && 'id' in message;
    const match = findMatch(this.plan.exchanges, 'POST', message);
    if (!isRequest) {
      this.handleNotification(session, message, match, sink);
      return;
    }
    if (!match) {
      this.unmatched(session, 'POST', message, sink);
      return;
    }
    this.note(session, 'POST', message, match);
    this.startStream(session, match, message, sink);
  }

  /** Resolves the live session of a request, answering 400/404 itself when there is none. */
  private sessionFor(
    request: IncomingRequest,
    message: JsonRpcMessage,
    sink: ResponseSink,
  ): LiveSession | null | undefined {
    if (!this.plan.sessions) {
      this.session(null);
      return;
    }
    if (message.method === 'initialize') {
      const id = `replay-session-${++this.sessionCount}`;
      const session: LiveSession = { id, streams: [], standalone: undefined };
      this.sessions.set(id, session);
      return session;
    }
    const id = request.headers['mcp-session-id'];
    if (id === undefined) {
      sink.head(400, JSON_HEADERS);
      sink.write(jsonRpcError(null, -32000, 'Bad Request: Mcp-Session-Id header is required. Send initialize first.'));
      sink.end();
      return undefined;
    }
    const session = this.sessions.get(id);
    if (!session) {
      sink.head(404, JSON_HEADERS);
      sink.write(jsonRpcError(null, -32001, `Session not found: "${id}". Send initialize to start a new session.`));
      sink.end();
      return undefined;
    }
    return session;
  }

  private session(id: string | null): LiveSession {
    let session = this.sessions.get(id);
    if (!session) {
      session = { id, streams: [], standalone: undefined };
      this.sessions.set(id, session);
    }
    return session;
  }

  private note(
    session: LiveSession | null,
    httpMethod: string,
    message: JsonRpcMessage | undefined,
    match: ReplayExchange | undefined,
    error?: string,
  ): void {
    this.received.push({
      session: session?.id ?? null,
      httpMethod,
      ...(typeof message?.method === 'string' && { method: message.method }),
      ...(message && 'id' in message && { id: message.id }),
      matched: match ? `${match.source} #${match.exchange}` : null,
      ...(error !== undefined && { error }),
    });
  }

  private responseHeaders(exchange: ReplayExchange, session: LiveSession | null): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(exchange.responseHeaders ?? {})) {
      if (TRANSPORT_HEADERS.has(name)) continue;
      if (name === 'date') headers[name] = new Date().toUTCString();
      else headers[name] = name === 'mcp-session-id' && session?.id ? session.id : value;
    }
    return headers;
  }

  private handleNotification(
    session: LiveSession | null,
    message: JsonRpcMessage,
    match: ReplayExchange | undefined,
    sink: ResponseSink,
  ): void {
    this.note(session, 'POST', message, match);
    if (message.method === 'notifications/cancelled') {
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      const stream = session?.streams.find((s) => s.liveId === requestId && !s.finished);
      if (stream) this.cancel(stream);
    }
    const respond = (): void => {
      sink.head(match?.status ?? 202, match ? this.responseHeaders(match, session) : {});
      sink.end();
    };
    this.later(undefined, this.delayMs(match?.headOffsetUs ?? 0), respond);
  }

  private unmatched(
    session: LiveSession | null,
    httpMethod: string,
    message: JsonRpcMessage,
    sink: ResponseSink,
  ): void {
    const error = explainUnmatched(this.plan.exchanges, message);
    this.note(session, httpMethod, message, undefined, error.message);
    reportUnmatched(this.options.onUnmatchedRequest, { httpMethod, message, error: error.message });
    sink.head(200, { ...JSON_HEADERS, ...(session?.id && { 'mcp-session-id': session.id }) });
    sink.write(jsonRpcError(message.id, error.code, error.message, error.data));
    sink.end();
  }

  private startStream(
    session: LiveSession | null,
    exchange: ReplayExchange,
    message: JsonRpcMessage,
    sink: ResponseSink,
  ): void {
    const meta = (message.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta;
    const hasToken = meta !== undefined && 'progressToken' in meta;
    const stream: LiveStream = {
      exchange,
      liveId: message.id,
      stamp: { idJson: JSON.stringify(message.id), ...(hasToken && { tokenJson: JSON.stringify(meta.progressToken) }) },
      delivered: [],
      timers: new Set(),
      sink: undefined,
      finished: false,
      cancelled: false,
    };
    session?.streams.push(stream);
    const headers = this.responseHeaders(exchange, session);
    const status = exchange.status ?? 200;
    // The live server sends no progress for a request without a token.
    const events = exchange.events.filter((e) => hasToken || !isProgress(e));
    if (exchange.bodyKind !== 'sse') {
      const at = Math.max(exchange.headOffsetUs, ...events.map((e) => e.offsetUs));
      this.later(stream, this.delayMs(at), () => {
        sink.head(status, headers);
        for (const event of events) sink.write(stampFrame(event.raw, event.kind, stream.stamp));
        stream.finished = true;
        sink.end();
      });
      return;
    }
    const out = this.sseSink(sink);
    // Index 0 is the response head; index i > 0 is event i - 1. Delivered strictly in order.
    const at = (i: number): number =>
      this.delayMs(
        i === 0 ? exchange.headOffsetUs : Math.max(exchange.headOffsetUs, (events[i - 1] as ReplayEvent).offsetUs),
      );
    stream.stop = paceInOrder(
      events.length + 1,
      at,
      (i) => {
        if (i === 0) {
          out.head(status, headers);
          this.attach(stream, out, undefined);
          return;
        }
        const event = events[i - 1] as ReplayEvent;
        const text = stampFrame(event.raw, event.kind, stream.stamp);
        stream.delivered.push({ ...(event.eventId !== undefined && { id: event.eventId }), text });
        stream.sink?.write(text);
      },
      () => this.finishIfComplete(stream),
    );
  }

  private finishIfComplete(stream: LiveStream): void {
    if (stream.exchange.end !== 'complete' || stream.cancelled) return;
    stream.finished = true;
    stream.sink?.end();
    stream.sink = undefined;
  }

  /** Connects a client connection to a live stream, sending what it missed after `lastEventId`. */
  private attach(stream: LiveStream, sink: ResponseSink, lastEventId: string | undefined): void {
    stream.sink = sink;
    sink.onClose(() => {
      if (stream.sink === sink) stream.sink = undefined;
    });
    if (lastEventId !== undefined) {
      const from = stream.delivered.findIndex((d) => d.id === lastEventId);
      for (const missed of stream.delivered.slice(from + 1)) sink.write(missed.text);
    }
    if (stream.finished) {
      sink.end();
      stream.sink = undefined;
    }
  }

  /** The sink SSE events go through: the client's own, or a re-chunking wrapper around it. */
  private sseSink(sink: ResponseSink): ResponseSink {
    const chunking = this.options.chunking;
    return chunking && isAdversarial(chunking) ? chunkingSink(sink, chunking) : sink;
  }

  private cancel(stream: LiveStream): void {
    stream.cancelled = true;
    stream.stop?.();
    for (const timer of stream.timers) clearTimeout(timer);
    stream.timers.clear();
  }

  private handleGet(request: IncomingRequest, sink: ResponseSink): void {
    const id = request.headers['mcp-session-id'] ?? null;
    const session = this.sessions.get(id);
    if (this.plan.sessions && !session) {
      sink.head(id === null ? 400 : 404, JSON_HEADERS);
      sink.write(
        jsonRpcError(
          null,
          id === null ? -32000 : -32001,
          id === null ? 'Bad Request: Mcp-Session-Id header is required.' : `Session not found: "${id}".`,
        ),
      );
      sink.end();
      return;
    }
    const lastEventId = request.headers['last-event-id'];
    const live = session ?? this.session(null);
    if (lastEventId === undefined) {
      this.note(live, 'GET', undefined, undefined);
      sink.head(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        ...(live.id && { 'mcp-session-id': live.id }),
      });
      live.standalone = sink;
      return;
    }
    const stream = live.streams.find((s) => s.delivered.some((d) => d.id === lastEventId));
    if (!stream) {
      this.note(live, 'GET', undefined, undefined, `no replayed stream has event id ${lastEventId}`);
      sink.head(400, JSON_HEADERS);
      sink.write(
        jsonRpcError(null, -32000, `Invalid Last-Event-ID "${lastEventId}": no stream of this session sent it.`),
      );
      sink.end();
      return;
    }
    this.note(live, 'GET', stream.exchange.message, stream.exchange);
    const out = this.sseSink(sink);
    out.head(200, this.responseHeaders(stream.exchange, live));
    this.attach(stream, out, lastEventId);
  }

  private handleDelete(request: IncomingRequest, sink: ResponseSink): void {
    const id = request.headers['mcp-session-id'] ?? null;
    const session = this.sessions.get(id);
    const recorded = this.plan.exchanges.find((e) => e.httpMethod === 'DELETE');
    this.note(session ?? null, 'DELETE', undefined, recorded);
    if (!session) {
      sink.head(404, JSON_HEADERS);
      sink.write(jsonRpcError(null, -32001, `Session not found: "${String(id)}".`));
      sink.end();
      return;
    }
    this.endSession(session);
    this.sessions.delete(id);
    this.later(undefined, this.delayMs(recorded?.headOffsetUs ?? 0), () => {
      sink.head(recorded?.status ?? 200, recorded ? this.responseHeaders(recorded, null) : {});
      sink.end();
    });
  }

  private endSession(session: LiveSession): void {
    for (const stream of session.streams) {
      this.cancel(stream);
      stream.finished = true;
      stream.sink?.end();
      stream.sink = undefined;
    }
    session.standalone?.end();
    session.standalone = undefined;
  }

  private later(stream: LiveStream | undefined, ms: number, run: () => void): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      stream?.timers.delete(timer);
      run();
    }, ms);
    stream?.timers.add(timer);
  }
}
