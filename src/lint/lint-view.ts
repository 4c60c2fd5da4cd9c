import type { Transcript } from '../transcript/frame.js';
import { frameMessage, type JsonRpcMessage, sseBlock } from '../transcript/frame-content.js';
import { cancelledRequestId, progressOf, requestProgressToken } from '../transcript/json-rpc.js';

/** One server->client SSE event or message, located in the transcript. */
export interface LintEvent {
  /** 0-based frame index; the golden line is `index + 2` (the header is line 1). */
  readonly index: number;
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

/** A client reconnect with `Last-Event-ID`. */
export interface LintReconnect {
  readonly index: number;
  readonly exchange: number;
  readonly lastEventId: string;
}

/** One request the client sent and what the server answered. */
export interface LintCall {
  readonly index: number;
  readonly t: number;
  readonly request: JsonRpcMessage;
  readonly hasToken: boolean;
  readonly token: unknown;
  /** Progress notifications attributed to this call, in arrival order (repeated event ids removed). */
  readonly progress: LintEvent[];
  response: LintEvent | undefined;
  /** Time the client sent `notifications/cancelled` for this call, or closed its stream (modern era). */
  cancelT: number | undefined;
}

/** A progress notification nobody asked for, or with a token that matches no request. */
export interface StrayProgress {
  readonly event: LintEvent;
  /** The call it most likely belongs to (the latest call open at the time). */
  readonly call: LintCall | undefined;
}

/** What the lint rules read: calls, their progress and results, SSE events per stream, reconnects. */
export interface LintView {
  readonly transcript: Transcript;
  readonly calls: readonly LintCall[];
  readonly stray: readonly StrayProgress[];
  /** Every server->client event with a JSON-RPC message or an SSE id, in order. */
  readonly events: readonly LintEvent[];
  readonly reconnects: readonly LintReconnect[];
}

/** Events arriving this soon after a reconnect's response head count as the replayed batch. */
const REPLAY_WINDOW_US = 50_000;

const sameToken = (a: unknown, b: unknown): boolean => a === b && typeof a === typeof b;
const tokenOf = (m: JsonRpcMessage): unknown => progressOf(m)?.progressToken;

/** Reads requests, responses, progress, SSE ids and reconnects out of a transcript. */
export function lintView(transcript: Transcript): LintView {
  const frames = transcript.frames;
  const reconnects: LintReconnect[] = [];
  const resumedHeadT = new Map<number, number>();
  frames.forEach((frame, index) => {
    const lastEventId = frame.headers?.['last-event-id'];
    if (frame.channel === 'http' && frame.dir === 'client->server' && lastEventId !== undefined) {
      reconnects.push({ index, exchange: frame.exchange, lastEventId });
    }
    if (
      frame.channel === 'http' &&
      frame.dir === 'server->client' &&
      reconnects.some((r) => r.exchange === frame.exchange)
    ) {
      resumedHeadT.set(frame.exchange, frame.t);
    }
  });
  const calls: LintCall[] = [];
  const stray: StrayProgress[] = [];
  const events: LintEvent[] = [];
  const seenIds = new Set<string>();
  frames.forEach((frame, index) => {
    if (frame.channel === 'close') {
      // The modern era's cancel: the client closed the stream of the call's exchange.
      const call = calls.findLast((c) => frames[c.index]?.exchange === frame.exchange);
      if (call) call.cancelT ??= frame.t;
      return;
    }
    const message = frameMessage(frame);
    if (frame.dir === 'client->server') {
      if (!message) return;
      if (typeof message.method === 'string' && 'id' in message && message.method !== 'initialize') {
        const { present, token } = requestProgressToken(message);
        calls.push({
          index,
          t: frame.t,
          request: message,
          hasToken: present,
          token,
          progress: [],
          response: undefined,
          cancelT: undefined,
        });
      } else if (message.method === 'notifications/cancelled') {
        const requestId = cancelledRequestId(message);
        const call = calls.find((c) => sameToken(c.request.id, requestId));
        if (call) call.cancelT ??= frame.t;
      }
      return;
    }
    const eventId = frame.channel === 'sse' ? sseBlock(frame)?.id : undefined;
    if (!message && eventId === undefined) return;
    const headT = resumedHeadT.get(frame.exchange);
    const event: LintEvent = {
      index,
      t: frame.t,
      exchange: frame.exchange,
      eventId,
      message,
      replayed: headT !== undefined && frame.t - headT <= REPLAY_WINDOW_US,
    };
    events.push(event);
    if (!message) return;
    // A repeated id is the same event delivered again (a replay): judged by resume-lossless only.
    const repeated = eventId !== undefined && eventId !== '' && seenIds.has(eventId);
    if (eventId) seenIds.add(eventId);
    if (message.method === 'notifications/progress') {
      if (repeated) return;
      const token = tokenOf(message);
      const owner = calls.find((c) => c.hasToken && sameToken(c.token, token));
      if (owner) owner.progress.push(event);
      else stray.push({ event, call: openCallAt(calls, frame.t) });
    } else if (!('method' in message) && 'id' in message) {
      const call = calls.find((c) => sameToken(c.request.id, message.id) && !c.response);
      if (call) call.response = event;
    }
  });
  return { transcript, calls, stray, events, reconnects };
}

function openCallAt(calls: readonly LintCall[], t: number): LintCall | undefined {
  const open = calls.filter((c) => c.t <= t && (!c.response || c.response.t >= t));
  return open.at(-1) ?? calls.filter((c) => c.t <= t).at(-1);
}

/** The `progress` field of a notification. */
export const progressValue = (event: LintEvent): unknown => progressOf(event.message)?.progress;

/** The `total` field of a notification. */
export const totalValue = (event: LintEvent): unknown => progressOf(event.message)?.total;
