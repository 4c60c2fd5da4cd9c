import type { JsonRpcMessage } from '../transcript/frame-content.js';
import type { JsonObject } from '../transcript/json-object.js';
import { type AnswerSink, answeringEra, jsonAnswer, refusalAnswer, writeAnswer } from './answering-era.js';
import { answerListen, LISTEN_STREAM_HEADERS, listenEvent } from './listen-subscription.js';
import { jsonRpcErrorOf, type ReadRequest } from './read-request.js';

/** A POST as the rules read it: its headers, names lower-cased (the peer may take more). */
export interface IncomingPost {
  readonly headers: Readonly<Record<string, string | undefined>>;
}

/** What the rules answered themselves: a refusal's text, or an answer made up as a live server gives it (`liveDefault`). */
export interface RuleNote {
  readonly error?: string;
  readonly liveDefault?: boolean;
}

/**
 * One peer of the 2026-07-28 answering side: where the answers come from (`serve`: the reference
 * tools; `replay`: the goldens). What every request gets before it reaches a peer (a notification's
 * `202`, `Mcp-Param-*` refusals, `subscriptions/listen` where the peer records none, a method the
 * peer lacks) is {@link answerPerRequest}'s, and the cancel (the client closing the stream) is its too.
 */
export interface PerRequestPeer<S extends AnswerSink, R extends IncomingPost = IncomingPost> {
  /** Whether the server has the method (the SDK v2 method registry: one it lacks is `404`). */
  hasMethod(method: string): boolean;
  /** The `x-mcp-header` arguments of a tool the server lists (argument → header name). */
  paramHeaders(tool: string): Readonly<Record<string, string>> | undefined;
  /** What a `subscriptions/listen` acknowledgement names: the server's capabilities and info, and its stream's `X-Accel-Buffering`. */
  listening(): {
    readonly capabilities: JsonObject;
    readonly serverInfo: JsonObject | undefined;
    readonly accel: boolean;
  };
  /**
   * Answers a request the rules let through, writing to `sink`. `cancelled` aborts when the client
   * closes the stream before the answer ended (the era's cancel): nothing more is to be written.
   */
  answer(message: JsonRpcMessage, read: ReadRequest, request: R, sink: S, cancelled: AbortSignal): void | Promise<void>;
  /** What the rules answered themselves, for the peer's report: a refusal's text, or a remark. */
  noted?(message: JsonRpcMessage, note: RuleNote): void;
  /** A listen stream held open (something is honored) until the client closes it or the server stops. */
  held?(sink: S): void;
}

/**
 * Answers one 2026-07-28 POST the reader let through, as the SDK v2 2.4.0 server does: a
 * notification (or a posted response) `202`; a `tools/call` whose `Mcp-Param-*` headers disagree
 * with its tool's `400 -32020`; `subscriptions/listen` (when the peer has no answer of its own) the
 * acknowledgement of what its capabilities honor; a method the peer lacks `404 -32601`; the rest
 * the peer's, with the client closing the stream as the call's cancel.
 */
export function answerPerRequest<S extends AnswerSink, R extends IncomingPost>(
  read: ReadRequest,
  message: JsonRpcMessage,
  request: R,
  peer: PerRequestPeer<S, R>,
  sink: S,
): void | Promise<void> {
  const era = answeringEra('modern');
  if (read.kind !== 'request') {
    peer.noted?.(message, {});
    writeAnswer(sink, { status: 202, headers: {} });
    return;
  }
  const tool = (message.params as { name?: unknown } | undefined)?.name;
  const declared = typeof tool === 'string' ? peer.paramHeaders(tool) : undefined;
  const refusal =
    era.paramHeaderRefusal(request.headers, message, declared) ??
    (read.method === 'subscriptions/listen' || peer.hasMethod(read.method as string)
      ? undefined
      : era.unknownMethod(read.method));
  if (refusal) {
    peer.noted?.(message, { error: refusal.message });
    writeAnswer(sink, refusalAnswer(refusal, read.id));
    return;
  }
  if (read.method === 'subscriptions/listen' && !peer.hasMethod(read.method)) {
    listen(message, peer, sink);
    return;
  }
  const cancelled = new AbortController();
  if (era.cancel('http') === 'closed-stream') sink.onClose(() => cancelled.abort());
  return peer.answer(message, read, request, sink, cancelled.signal);
}

/**
 * `subscriptions/listen`, as the SDK v2 server answers it for a server whose lists the peer
 * describes: the acknowledgement of what its capabilities honor, then, when nothing is honored, the
 * result that ends the subscription; else the stream stays open until the client closes it.
 */
function listen<S extends AnswerSink, R extends IncomingPost>(
  message: JsonRpcMessage,
  peer: PerRequestPeer<S, R>,
  sink: S,
): void {
  const { capabilities, serverInfo, accel } = peer.listening();
  const answer = answerListen(message.id as string | number, message.params, capabilities, serverInfo);
  if (answer.kind === 'refused') {
    peer.noted?.(message, { error: answer.message });
    const refused = { code: answer.code, message: answer.message, status: 200 };
    writeAnswer(sink, jsonAnswer(200, jsonRpcErrorOf(message.id as string | number, refused)));
    return;
  }
  peer.noted?.(message, { liveDefault: true });
  const { 'x-accel-buffering': accelHeader, ...plain } = LISTEN_STREAM_HEADERS;
  sink.head(200, accel && accelHeader !== undefined ? { ...plain, 'x-accel-buffering': accelHeader } : plain);
  for (const event of answer.messages) sink.write(listenEvent(event));
  if (answer.holdOpen) peer.held?.(sink);
  else sink.end();
}
