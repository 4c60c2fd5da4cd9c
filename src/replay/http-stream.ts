import { answeringEra } from '../http/answering-era.js';
import type { TableSession } from '../http/session-table.js';
import { mediaTypeOf } from '../transcript/body-kind.js';
import { TRANSPORT_HEADERS } from '../transcript/normalize.js';
import { chunkingSink, isAdversarial } from './chunking.js';
import { type IncomingRequest, type Outgoing, type ResponseSink, writeOut } from './http-exchange.js';
import { JSON_HEADERS } from './json-rpc-error.js';
import { type LiveEvent, stampedBytes, streamOffsets } from './live-event.js';
import { frameEvent } from './reframe.js';
import { CALL_LIMIT, type ReplayCall, type ReplayEngine, type ReplaySession } from './replay-engine.js';
import type { ReplayEvent, ReplayExchange } from './replay-plan.js';

/** A call's SSE stream, kept for resumption. */
export interface HttpStream {
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

/** A session as the HTTP adapter keeps it: the engine's, its streams and its standalone GET stream. */
export interface HttpSession extends TableSession {
  readonly session: ReplaySession;
  readonly streams: HttpStream[];
  standalone: ResponseSink | undefined;
}

/** What the client accepts for a POST answer. */
interface Accepts {
  readonly json: boolean;
  readonly sse: boolean;
}

/** The last `Accept` parsed, and what it parsed to: a client sends the same one with every request. */
let lastAccept: { readonly header: string | undefined; readonly accepts: Accepts } | undefined;

/** Parses `Accept` into the two media types a Streamable HTTP answer can have (the framing; which Accept is refused is the request reader's). */
function acceptsOf(header: string | undefined): Accepts {
  if (lastAccept !== undefined && lastAccept.header === header) return lastAccept.accepts;
  const types = (header ?? '').split(',').map(mediaTypeOf);
  const any = types.includes('*/*');
  const accepts: Accepts = {
    json: any || types.includes('application/json') || types.includes('application/*'),
    sse: any || types.includes('text/event-stream') || types.includes('text/*'),
  };
  lastAccept = { header, accepts };
  return accepts;
}

/** Headers of an answer re-framed as SSE. */
export const SSE_HEADERS: Readonly<Record<string, string>> = answeringEra('legacy').streamHeaders(false);

/** The `mcp-session-id` header of a session's answers (none for the sessionless one). */
export function sessionHeader(state: HttpSession): Record<string, string> {
  return state.session.id ? { 'mcp-session-id': state.session.id } : {};
}

/** The recorded response headers, with the live session id where one was recorded, and today's date. */
export function responseHeaders(exchange: ReplayExchange, sessionId: string | null): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorded = exchange.responseHeaders ?? {};
  for (const name in recorded) {
    const value = recorded[name] as string;
    if (TRANSPORT_HEADERS.has(name)) continue;
    if (name === 'mcp-session-id') {
      if (sessionId) headers[name] = sessionId;
    } else headers[name] = name === 'date' ? httpDate() : value;
  }
  return headers;
}

/**
 * Answers a call on its POST response: the recorded bytes when the client accepts the recorded
 * framing, else its events re-framed as SSE or one JSON body, paced by the engine.
 */
export function streamCall(
  engine: ReplayEngine,
  state: HttpSession,
  call: ReplayCall,
  request: IncomingRequest,
  sink: ResponseSink,
  nextNumber: () => number,
): void {
  const exchange = call.exchange;
  const accepts = acceptsOf(request.headers.accept);
  const recorded = exchange.transport === 'http' && exchange.responseHeaders !== undefined;
  const exact =
    recorded && (exchange.bodyKind === 'sse' ? accepts.sse : exchange.bodyKind === 'json' ? accepts.json : true);
  const framing = exact ? (exchange.bodyKind === 'sse' ? 'sse' : 'json') : accepts.sse ? 'sse' : 'json';
  const headers = exact
    ? responseHeaders(exchange, state.session.id)
    : { ...(framing === 'sse' ? SSE_HEADERS : JSON_HEADERS), ...sessionHeader(state) };
  const status = exact ? (exchange.status ?? 200) : 200;
  const headUs = exact ? exchange.headOffsetUs : 0;
  if (framing === 'json') {
    // One body: everything (exact), or only the answer (notifications have no place in a JSON body).
    const events = exact ? call.events : call.events.filter((e) => e.message && !('method' in e.message));
    const at = Math.max(headUs, ...events.map((e) => e.offsetUs));
    engine.play(
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
  const number = nextNumber();
  const primed = isAdversarial(engine.options.chunking) && engine.options.chunking?.primingEvents;
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
  // A long session keeps only recent finished or cancelled streams (they are there for resumption);
  // a cancelled one let go is closed, as its call is no longer kept.
  const oldest =
    state.streams.length > CALL_LIMIT ? state.streams.findIndex((s) => s.finished || s.call.cancelled) : -1;
  if (oldest >= 0) {
    const [gone] = state.streams.splice(oldest, 1);
    gone?.sink?.end();
  }
  const out = sseSink(engine, sink, live.primingId);
  engine.play(
    call,
    streamOffsets(call.recorded, headUs),
    (i) => {
      if (i === 0) {
        out.head(status, headers);
        attach(live, out, undefined);
        return;
      }
      live.played = i;
      const bytes = live.sink && outgoing(live, i - 1);
      if (bytes && live.sink) writeOut(live.sink, bytes);
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
export function attach(stream: HttpStream, sink: ResponseSink, lastEventId: string | undefined): void {
  stream.sink = sink;
  sink.onClose(() => {
    if (stream.sink === sink) stream.sink = undefined;
  });
  if (lastEventId !== undefined) {
    for (let index = sentIndex(stream, lastEventId) + 1; index < stream.played; index++) {
      const missed = outgoing(stream, index);
      if (missed !== undefined) writeOut(sink, missed);
    }
  }
  if (stream.finished) {
    sink.end();
    stream.sink = undefined;
  }
}

/** The sink SSE events go through: the client's own, or a re-chunking wrapper around it. */
export function sseSink(engine: ReplayEngine, sink: ResponseSink, primingId: string | undefined): ResponseSink {
  const chunking = engine.options.chunking;
  return chunking && isAdversarial(chunking) ? chunkingSink(sink, chunking, primingId) : sink;
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
 * The bytes of a stream's `index`th event as the stream sends it: the recorded bytes with the live
 * id and token, or the event re-framed with an id of this stream's; `undefined` for an event a
 * re-framed stream leaves out.
 */
export function outgoing(stream: HttpStream, index: number): Outgoing | undefined {
  const call = stream.call;
  if (stream.exact) return stampedBytes(call.recorded[index] as ReplayEvent, call.fill);
  const text = frameEvent(call.events[index] as LiveEvent, 'sse');
  return text === undefined ? undefined : `id: ${stream.number}-${index + 1}\n${text}`;
}

/** Index of the played event the stream sent with SSE id `id`; -1 when it sent none. */
export function sentIndex(stream: HttpStream, id: string): number {
  if (stream.exact) {
    for (let index = 0; index < stream.played; index++) {
      if (stream.call.recorded[index]?.eventId === id) return index;
    }
    return -1;
  }
  const prefix = `${stream.number}-`;
  if (!id.startsWith(prefix) || !/^[1-9]\d*$/.test(id.slice(prefix.length))) return -1;
  const index = Number(id.slice(prefix.length)) - 1;
  return index < stream.played && outgoing(stream, index) !== undefined ? index : -1;
}
