import type { Frame, Transcript } from '../transcript/frame.js';
import { frameMessage, type JsonRpcMessage } from '../transcript/frame-content.js';
import { cancelledRequestId, requestProgressToken, resultContent, resultOf, textOf } from '../transcript/json-rpc.js';

/** True when `message` is another request of the same tool call (a retry or a re-issue). */
function isRoundOf(message: JsonRpcMessage, first: JsonRpcMessage | undefined): boolean {
  const name = (m: JsonRpcMessage | undefined): unknown => (m?.params as { name?: unknown } | undefined)?.name;
  return message.method === 'tools/call' && 'id' in message && name(message) === name(first);
}

/** One message the client received for the call, with its arrival time. */
export interface Arrival {
  readonly message: JsonRpcMessage;
  /** Milliseconds since the `tools/call` request was sent. */
  readonly atMs: number;
  /** Index of the read that completed it (reads of the call's streams, counted from 0). */
  readonly read: number;
  /**
   * Its place in the transcript's frames: the order the client got it in, which holds when two
   * messages share a read and so an arrival time.
   */
  readonly order: number;
}

/** What a client saw of one `tools/call`, read off its transcript. */
export interface CallView {
  readonly request: JsonRpcMessage | undefined;
  /** Whether the request carried `_meta.progressToken`, and its value. */
  readonly hasToken: boolean;
  readonly token: unknown;
  readonly progress: readonly Arrival[];
  readonly response: Arrival | undefined;
  /** Milliseconds from the request to the `notifications/cancelled` the client sent, or to its closing the stream (modern era). */
  readonly cancelAtMs: number | undefined;
  /** Server->client reads on the call's streams. */
  readonly reads: number;
  /** Largest number of messages completed by one read. */
  readonly maxMessagesPerRead: number;
}

/**
 * Reads one `tools/call` out of a client-side transcript: the request, the progress
 * notifications and the response that answered it (by token and id, across resumed streams),
 * the cancellation, and how the bytes were cut into reads.
 */
export function callView(transcript: Transcript): CallView {
  const frames = transcript.frames;
  const callFrame = frames.find((f) => f.dir === 'client->server' && frameMessage(f)?.method === 'tools/call');
  const request = callFrame ? frameMessage(callFrame) : undefined;
  const asked = request ? requestProgressToken(request) : { present: false, token: undefined };
  const start = callFrame ? (frames.find((f) => f.exchange === callFrame.exchange)?.t ?? callFrame.t) : 0;
  const ms = (frame: Frame): number => (frame.t - start) / 1000;
  const progress: Arrival[] = [];
  let response: Arrival | undefined;
  let cancelAtMs: number | undefined;
  let reads = -1;
  const perRead = new Map<number, number>();
  // A modern (2026-07-28) call may take several requests: an input_required round's retry, or the
  // re-issue of a call whose stream was lost. Each is a round of the same call, with its own id.
  const ids = new Set<unknown>([request?.id]);
  const exchanges = new Set<number>(callFrame ? [callFrame.exchange] : []);
  let nextRound = false;
  let closedAtMs: number | undefined;
  for (const [order, frame] of frames.entries()) {
    if (!callFrame || frame.t < callFrame.t) continue;
    if (frame.dir === 'server->client' && frame.channel === 'read' && frame.exchange >= callFrame.exchange) reads++;
    if (frame.channel === 'close' && exchanges.has(frame.exchange) && !response) {
      closedAtMs ??= ms(frame);
      nextRound = true;
      continue;
    }
    const message = frameMessage(frame);
    if (!message) continue;
    if (frame.dir === 'client->server') {
      if (message.method === 'notifications/cancelled' && cancelledRequestId(message) === request?.id) {
        cancelAtMs ??= ms(frame);
      } else if (nextRound && frame !== callFrame && isRoundOf(message, request)) {
        ids.add(message.id);
        exchanges.add(frame.exchange);
        nextRound = false;
        closedAtMs = undefined;
      }
      continue;
    }
    const arrival: Arrival = { message, atMs: ms(frame), read: Math.max(0, reads), order };
    if (message.method === 'notifications/progress') progress.push(arrival);
    else if (!('method' in message) && ids.has(message.id) && !response) {
      if (resultOf(message)?.resultType === 'input_required') {
        nextRound = true;
        continue;
      }
      response = arrival;
    } else continue;
    perRead.set(arrival.read, (perRead.get(arrival.read) ?? 0) + 1);
  }
  return {
    request,
    hasToken: asked.present,
    token: asked.token,
    progress,
    response,
    cancelAtMs: cancelAtMs ?? closedAtMs,
    reads: Math.max(0, reads + 1),
    maxMessagesPerRead: Math.max(0, ...perRead.values()),
  };
}

/** Text blocks of the call's result (`[]` when the result has none or the call failed). */
export function resultTexts(view: CallView): string[] {
  return (resultContent(view.response?.message) ?? []).map((block) => textOf(block) ?? JSON.stringify(block));
}
