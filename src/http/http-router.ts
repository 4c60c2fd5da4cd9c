import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { type AnswerSink, answeringEra, refusalAnswer, unknownSession, writeAnswer } from './answering-era.js';
import { doorRefusal, type FrontDoorOptions, type HttpRequest, parseBody } from './front-door.js';
import { batchRefusal } from './mcp-http-rules.js';
import { answerPerRequest, type PerRequestPeer } from './per-request-side.js';
import { type ReadOptions, type ReadRequest, type RequestRefusal, readRequest } from './read-request.js';

/**
 * The 2025 peer of the answering side: where a session's answers come from (`serve`: the SDK v1
 * 1.32 stateful transport, one a session; `replay`: the goldens). Which requests reach it (an open
 * session named, or none; a batch its version takes) is {@link routeHttp}'s.
 */
export interface SessionPeer<S extends AnswerSink, R extends HttpRequest> {
  /** Whether GET and DELETE have a session to act on; `false`: a stateless server's `405`. */
  readonly keepsSessions: boolean;
  /** The open session `id` names (or, for none, the one the peer gives such requests), with its negotiated version. */
  session(id: string | undefined): { readonly version?: string | undefined } | undefined;
  /** Answers a 2025 request the router let through (`value` the parsed body; none for GET and DELETE). */
  answer(read: ReadRequest, value: unknown, request: R, sink: S): void | Promise<void>;
}

/** The two peers of one HTTP answering side, and the rules they share. */
export interface HttpSides<S extends AnswerSink, R extends HttpRequest> {
  readonly legacy: SessionPeer<S, R>;
  /** The 2026-07-28 peer; none: a request of that era is for a method the server lacks (`404`). */
  readonly modern?: PerRequestPeer<S, R> | undefined;
  /** Which eras the server speaks (`legacy: 'reject'`: 2026-07-28 only; `modern: 'reject'`: 2025 only). */
  readonly read: ReadOptions;
  readonly door: FrontDoorOptions;
  /** Told of each refusal the router answered after reading the request (the replay's report lists them). */
  refused?(read: ReadRequest, value: unknown, request: R, refusal: RequestRefusal): void;
}

/**
 * The one router of `serve` and `replay` over HTTP: the front door (Origin, method, Content-Type,
 * size), the one reading of the request (its era and refusal), then the era's side as the
 * answering-era strategy says: a 2026-07-28 POST per request through {@link answerPerRequest}; a
 * 2025 request to the session peer, after the rules every 2025 server here shares (GET and DELETE
 * `405` where no session is kept, an unknown session `404 -32001`, a batch its version refuses).
 */
export function routeHttp<S extends AnswerSink, R extends HttpRequest>(
  request: R,
  sink: S,
  sides: HttpSides<S, R>,
): void | Promise<void> {
  const door = doorRefusal(request, sides.door);
  if (door) return writeAnswer(sink, door);
  const value = request.httpMethod === 'POST' ? parseBody(request.body) : undefined;
  const read = readRequest({ httpMethod: request.httpMethod, headers: request.headers, body: value }, sides.read);
  const refuse = (refusal: RequestRefusal, id: string | number | null): void => {
    sides.refused?.(read, value, request, refusal);
    writeAnswer(sink, refusalAnswer(refusal, id));
  };
  if (read.refusal) return refuse(read.refusal, read.id);
  if (answeringEra(read.era).state === 'request') {
    if (!sides.modern) return refuse(answeringEra('modern').unknownMethod(read.method), read.id);
    return answerPerRequest(read, value as JsonRpcMessage, request, sides.modern, sink);
  }
  const streams = answeringEra('legacy').streamRequest(sides.legacy.keepsSessions);
  if (request.httpMethod !== 'POST' && streams !== 'session') return refuse(streams, null);
  const id = request.headers['mcp-session-id'];
  const session = sides.legacy.session(id);
  if (id !== undefined && !session) return refuse(unknownSession(id), null);
  if (Array.isArray(value)) {
    const refusal = batchRefusal(value.length, request.headers['mcp-protocol-version'] ?? session?.version);
    if (refusal) return refuse(refusal, null);
  }
  return sides.legacy.answer(read, value, request, sink);
}
