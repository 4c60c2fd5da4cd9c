import type { Frame, Transcript } from './frame.js';
import { frameMessage, sseBlock } from './frame-content.js';
import { memberOf } from './json-object.js';
import {
  cancelledRequestId,
  errorOf,
  type JsonRpcMessage,
  progressOf,
  requestProgressToken,
  resultOf,
} from './json-rpc.js';

/** One server->client event or message, located in the transcript. */
export interface StreamEvent {
  /** Its frame's index: the order the client got it in (the golden line is `order + 2`). */
  readonly order: number;
  /** Microseconds since the transcript began. */
  readonly t: number;
  readonly exchange: number;
  /** SSE `id:` field, when the server sent one. */
  readonly eventId: string | undefined;
  /** The JSON-RPC message, or `undefined` for a priming event or comment. */
  readonly message: JsonRpcMessage | undefined;
  /** Sent in the batch a server replays right after a `Last-Event-ID` reconnect. */
  readonly replayed: boolean;
}

/** One message a client received for a call. */
export interface Arrival extends StreamEvent {
  readonly message: JsonRpcMessage;
  /** Milliseconds since the call's request was sent (the first frame of its exchange). */
  readonly atMs: number;
  /** Index of the read that completed it (server->client reads since the call's request, counted from 0). */
  readonly read: number;
  /** Its SSE id was delivered before: the same event again (a replay after a reconnect). */
  readonly repeated: boolean;
}

/** One request a client sent and what it received for it. */
export interface Call {
  /** Its request's frame index; -1 for the empty call {@link readToolCall} gives a transcript without one. */
  readonly order: number;
  /** Microseconds since the transcript began, when the request was sent (the first frame of its exchange). */
  readonly t: number;
  readonly exchange: number;
  /** The request; `undefined` only in the empty call. */
  readonly request: JsonRpcMessage | undefined;
  /** Whether the request carried `_meta.progressToken`, and its value. */
  readonly hasToken: boolean;
  readonly token: unknown;
  /**
   * Progress notifications for this call, in arrival order: those carrying its token (a token reused
   * by a later call belongs to the earlier one until that call ends: its result, or the client's
   * cancel), and those whose token no call sent, by the stream they came on or else the call open then.
   */
  readonly progress: readonly Arrival[];
  /**
   * The response that ends it: the first with the request's id, or, in the 2026-07-28 era, with the id
   * of a later round (an `input_required` answer's retry, or the re-issue after a closed stream).
   */
  readonly response: Arrival | undefined;
  /**
   * Milliseconds from the request to the first `notifications/cancelled` the client sent for it, or to
   * the client closing its stream (the 2026-07-28 era's cancel over HTTP) when no later round followed.
   */
  readonly cancelAtMs: number | undefined;
  /**
   * The task the server answered the call with (`resultType: "task"`, the tasks extension): its
   * `tasks/get`, `tasks/update` and `tasks/cancel` requests are rounds of the call, its response is
   * the `tasks/get` answer at a terminal status (or an error a round got), its cancel `tasks/cancel`.
   */
  readonly taskId?: string;
  /** Server->client reads from the request on: on its stream and the streams opened after it. */
  readonly reads: number;
  /** Largest number of the call's messages (progress and response) completed by one read. */
  readonly maxMessagesPerRead: number;
}

/** A progress notification whose token no earlier request sent. */
export interface StrayProgress {
  readonly arrival: Arrival;
  /** The call it is credited to (see {@link Call.progress}); `undefined` before any request. */
  readonly call: Call | undefined;
}

/** A client reconnect with `Last-Event-ID`. */
export interface Reconnect {
  readonly order: number;
  readonly exchange: number;
  readonly lastEventId: string;
}

/** A session read as calls: every request, the messages that answered it, and the streams they came on. */
export interface SessionCalls {
  /** Every request the client sent but the handshake's `initialize`, in order. */
  readonly calls: readonly Call[];
  /** Progress with a token no request sent (repeated SSE ids left out). */
  readonly stray: readonly StrayProgress[];
  /** Every server->client event with a JSON-RPC message or an SSE id, in order. */
  readonly events: readonly StreamEvent[];
  readonly reconnects: readonly Reconnect[];
}

/** Events arriving this soon after a reconnect's response head count as the replayed batch. */
const REPLAY_WINDOW_US = 50_000;

const sameId = (a: unknown, b: unknown): boolean => a === b && typeof a === typeof b;

interface OpenCall extends Call {
  progress: Arrival[];
  response: Arrival | undefined;
  cancelAtMs: number | undefined;
  reads: number;
  maxMessagesPerRead: number;
  readonly perRead: Map<number, number>;
  /** The ids and exchanges of its rounds: the request, then each retry or re-issue (2026-07-28). */
  readonly ids: unknown[];
  readonly exchanges: Set<number>;
  /** An `input_required` answer or a closed stream: the next request of the same tool is a round of it. */
  awaitingRound: boolean;
  /** When the client closed the stream of its latest round. */
  closedAtMs: number | undefined;
  taskId?: string;
  /** A 2025-11-25 task (experimental tasks): its result comes from `tasks/result`. */
  legacyTask?: boolean;
  /** The method of each round's request, by id (JSON). */
  readonly roundMethods: Map<string, string>;
}

const ended = (call: OpenCall): boolean =>
  call.response !== undefined || call.cancelAtMs !== undefined || call.closedAtMs !== undefined;

/**
 * True when `message` is another round of `call`: a `tools/call` of the same tool after it asked for
 * one, or a `tasks/*` request naming the task it was answered with.
 */
function isRoundOf(message: JsonRpcMessage, call: OpenCall): boolean {
  const param = (m: JsonRpcMessage | undefined, key: string): unknown => (m?.params as Record<string, unknown>)?.[key];
  if (call.taskId !== undefined && String(message.method).startsWith('tasks/'))
    return param(message, 'taskId') === call.taskId;
  return (
    call.awaitingRound && message.method === 'tools/call' && param(message, 'name') === param(call.request, 'name')
  );
}

const TERMINAL_TASK = new Set(['completed', 'failed', 'cancelled']);

/** The 2026-07-28 refusal of a request whose headers and body disagree (`-32020`). */
const isHeaderRefusal = (message: JsonRpcMessage): boolean => errorOf(message)?.code === HEADER_MISMATCH;
const HEADER_MISMATCH = -32020;

/** Reads an answer to one of a call's rounds: another round asked for, its task, or the response that ends it. */
function answerRound(call: OpenCall, message: JsonRpcMessage, arrival: () => Arrival): void {
  const result = resultOf(message);
  const legacy = result?.content === undefined ? memberOf(result?.task, 'taskId') : undefined;
  const method = call.roundMethods.get(JSON.stringify(message.id));
  // A 2026-07-28 server refusing a call whose headers and body disagree (-32020): the SDK v2 client
  // lists the tools to learn their `Mcp-Param-*` headers and sends the call again, a round of it.
  if (result?.resultType === 'input_required' || isHeaderRefusal(message)) call.awaitingRound = true;
  else if (result?.resultType === 'task' && call.taskId === undefined && typeof result.taskId === 'string')
    call.taskId = result.taskId;
  else if (call.taskId === undefined && typeof legacy === 'string' && method === 'tools/call') {
    call.taskId = legacy;
    call.legacyTask = true;
  }
  // A task call ends with its result: the terminal status (2026-07-28) or tasks/result (2025-11-25),
  // or an error; a working poll and an acknowledgement do not end it.
  else if (
    call.taskId === undefined ||
    'error' in message ||
    (call.legacyTask
      ? method === 'tasks/result' || /^(failed|cancelled)$/.test(String(result?.status))
      : TERMINAL_TASK.has(String(result?.status)))
  )
    call.response = arrival();
}

/**
 * Reads a client-side transcript as calls: each request with its token, its progress, its response,
 * its cancel time, and how the bytes were cut into reads. The one reading every judge reads
 * (invariants, lint, verify, the check), so they agree on what belongs to which call.
 */
export function readCalls(transcript: Transcript): SessionCalls {
  const frames = transcript.frames;
  const { reconnects, resumedHeadT } = readReconnects(frames);
  const calls: OpenCall[] = [];
  const stray: StrayProgress[] = [];
  const events: StreamEvent[] = [];
  const seenIds = new Set<string>();
  const exchangeStart = new Map<number, number>();
  for (const [order, frame] of frames.entries()) {
    if (!exchangeStart.has(frame.exchange)) exchangeStart.set(frame.exchange, frame.t);
    if (frame.dir === 'server->client' && frame.channel === 'read') {
      for (const call of calls) if (frame.exchange >= call.exchange) call.reads++;
      continue;
    }
    if (frame.channel === 'close') {
      // The 2026-07-28 era's cancel over HTTP: the client closed the stream of the call's latest round.
      const call = calls.findLast((c) => !c.response && c.exchanges.has(frame.exchange));
      if (call) {
        call.closedAtMs ??= (frame.t - call.t) / 1000;
        call.awaitingRound = true;
      }
      continue;
    }
    const message = frameMessage(frame);
    if (frame.dir === 'client->server') {
      if (message) readClientMessage(calls, message, order, frame, exchangeStart.get(frame.exchange) ?? frame.t);
      continue;
    }
    const eventId = frame.channel === 'sse' ? sseBlock(frame)?.id : undefined;
    if (!message && eventId === undefined) continue;
    const headT = resumedHeadT.get(frame.exchange);
    const event: StreamEvent = {
      order,
      t: frame.t,
      exchange: frame.exchange,
      eventId,
      message,
      replayed: headT !== undefined && frame.t - headT <= REPLAY_WINDOW_US,
    };
    events.push(event);
    if (!message) continue;
    const repeated = eventId !== undefined && eventId !== '' && seenIds.has(eventId);
    if (eventId) seenIds.add(eventId);
    if (message.method === 'notifications/progress') {
      const token = progressOf(message)?.progressToken;
      const owner = tokenOwner(calls, token);
      const call = owner ?? streamOwner(calls, frame);
      const arrival = arrive(call, event, message, repeated);
      if (call) call.progress.push(arrival);
      if (!owner && !repeated) stray.push({ arrival, call });
    } else if (typeof message.method !== 'string' && 'id' in message) {
      const call = calls.find((c) => !c.response && c.ids.some((id) => sameId(id, message.id)));
      if (!call) continue;
      answerRound(call, message, () => arrive(call, event, message, repeated));
    }
  }
  for (const call of calls) call.cancelAtMs ??= call.closedAtMs;
  return { calls, stray, events, reconnects };
}

/** The session's first `tools/call`, or an empty call when it has none. */
export function readToolCall(transcript: Transcript): Call {
  return readCalls(transcript).calls.find((c) => c.request?.method === 'tools/call') ?? EMPTY_CALL;
}

const EMPTY_CALL: Call = {
  order: -1,
  t: 0,
  exchange: 0,
  request: undefined,
  hasToken: false,
  token: undefined,
  progress: [],
  response: undefined,
  cancelAtMs: undefined,
  reads: 0,
  maxMessagesPerRead: 0,
};

function readClientMessage(calls: OpenCall[], message: JsonRpcMessage, order: number, frame: Frame, t: number): void {
  if (typeof message.method === 'string' && 'id' in message && message.method !== 'initialize') {
    const earlier = calls.findLast((c) => !c.response && isRoundOf(message, c));
    if (earlier) {
      earlier.ids.push(message.id);
      earlier.roundMethods.set(JSON.stringify(message.id), String(message.method));
      earlier.exchanges.add(frame.exchange);
      earlier.awaitingRound = false;
      earlier.closedAtMs = undefined;
      if (message.method === 'tasks/cancel') earlier.cancelAtMs ??= (t - earlier.t) / 1000;
      return;
    }
    const { present, token } = requestProgressToken(message);
    calls.push({
      order,
      t,
      exchange: frame.exchange,
      request: message,
      hasToken: present,
      token,
      progress: [],
      response: undefined,
      cancelAtMs: undefined,
      reads: 0,
      maxMessagesPerRead: 0,
      perRead: new Map(),
      ids: [message.id],
      roundMethods: new Map([[JSON.stringify(message.id), message.method]]),
      exchanges: new Set([frame.exchange]),
      awaitingRound: false,
      closedAtMs: undefined,
    });
  } else if (message.method === 'notifications/cancelled') {
    const requestId = cancelledRequestId(message);
    const same = calls.filter((c) => sameId(c.request?.id, requestId));
    const call = same.findLast((c) => !c.response) ?? same.at(-1);
    if (call) call.cancelAtMs ??= (frame.t - call.t) / 1000;
  }
}

/**
 * The call a token belongs to: the earliest call with that token still open (a token may be reused
 * once its call ends), or else the latest one that had it (progress after its call ended).
 */
function tokenOwner(calls: readonly OpenCall[], token: unknown): OpenCall | undefined {
  let last: OpenCall | undefined;
  for (const call of calls) {
    if (!call.hasToken || !sameId(call.token, token)) continue;
    if (!ended(call)) return call;
    last = call;
  }
  return last;
}

/** For progress with a token no request sent: the call whose stream it came on, or the latest call open then. */
function streamOwner(calls: readonly OpenCall[], frame: Frame): OpenCall | undefined {
  return calls.findLast((c) => c.exchange === frame.exchange) ?? calls.findLast((c) => !c.response) ?? calls.at(-1);
}

function arrive(call: OpenCall | undefined, event: StreamEvent, message: JsonRpcMessage, repeated: boolean): Arrival {
  const read = Math.max(0, (call?.reads ?? 0) - 1);
  if (call) {
    const count = (call.perRead.get(read) ?? 0) + 1;
    call.perRead.set(read, count);
    call.maxMessagesPerRead = Math.max(call.maxMessagesPerRead, count);
  }
  return { ...event, message, atMs: (event.t - (call?.t ?? 0)) / 1000, read, repeated };
}

function readReconnects(frames: readonly Frame[]): {
  reconnects: Reconnect[];
  resumedHeadT: Map<number, number>;
} {
  const reconnects: Reconnect[] = [];
  const resumedHeadT = new Map<number, number>();
  for (const [order, frame] of frames.entries()) {
    if (frame.channel !== 'http') continue;
    const lastEventId = frame.headers?.['last-event-id'];
    if (frame.dir === 'client->server' && lastEventId !== undefined) {
      reconnects.push({ order, exchange: frame.exchange, lastEventId });
    }
    if (frame.dir === 'server->client' && reconnects.some((r) => r.exchange === frame.exchange)) {
      resumedHeadT.set(frame.exchange, frame.t);
    }
  }
  return { reconnects, resumedHeadT };
}
