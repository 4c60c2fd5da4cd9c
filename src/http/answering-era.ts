import type { ServerResponse } from 'node:http';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { paramHeaderMismatch } from '../transcript/modern-envelope.js';
import { jsonRpcErrorOf, methodNotAllowed, methodNotFound, type RequestRefusal } from './read-request.js';

/**
 * What differs between the protocol eras on the side that answers MCP requests (`serve` and
 * `replay`, over HTTP and stdio), the mirror of the recorder's `EraStrategy`: whether a client's
 * requests share a session, what GET and DELETE get, how a cancel arrives, what a request for a
 * method the server lacks gets, and which headers an answer carries. The 2026-07-28 rules are the
 * SDK v2 2.4.0 server's (`createMcpHandler`); the 2025 ones the SDK v1 1.32 stateful transport's.
 * Where an answer comes from (the reference tools, or a golden) is the caller's; these rules are not.
 */
export interface AnsweringEra {
  readonly era: 'legacy' | 'modern';
  /** `session`: an `initialize` opens one, `Mcp-Session-Id` names it (2025); `request`: each POST stands alone (2026-07-28). */
  readonly state: 'session' | 'request';
  /**
   * What a GET or DELETE gets: `session` (the session's standalone stream, resumption, its end), or
   * `405` where no session is kept (2026-07-28, and a stateless dual-era server's 2025 side).
   */
  streamRequest(keepsSessions: boolean): 'session' | RequestRefusal;
  /** How a client's cancel arrives: `notifications/cancelled`, or the client closing the call's stream (2026-07-28 over HTTP). */
  cancel(transport: 'http' | 'stdio'): 'notification' | 'closed-stream';
  /** A request for a method the server does not have: the SDK v2 method registry's `404 -32601`, or JSON-RPC's `-32601` in a `200` (2025). */
  unknownMethod(method: string | undefined): RequestRefusal;
  /**
   * A `tools/call` whose `Mcp-Param-*` headers disagree with the arguments its tool marks with
   * `x-mcp-header` (`declared`: argument → header): `400 -32020` (SEP-2243, before dispatch); 2025
   * has no such headers.
   */
  paramHeaderRefusal(
    headers: Readonly<Record<string, string | undefined>>,
    message: JsonRpcMessage,
    declared: Readonly<Record<string, string>> | undefined,
  ): RequestRefusal | undefined;
  /** Headers of a call answered as an SSE stream (`accel`: with `X-Accel-Buffering: no`). */
  streamHeaders(accel: boolean): Record<string, string>;
}

/** What a refusal or an answer is written as: status, headers, and the body (none for a `202`). */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** Where an answer is written: a node:http response, an msw stream. */
export interface AnswerSink {
  head(status: number, headers: Record<string, string>): void;
  write(text: string | Uint8Array): void;
  end(): void;
  /** Called once if the client goes away before `end()`. */
  onClose(listener: () => void): void;
}

/** A node:http response as an {@link AnswerSink}: `onClose` runs when the client goes before the response ended. */
export function nodeAnswerSink(res: ServerResponse): AnswerSink {
  return {
    head: (status, headers) => void res.writeHead(status, headers),
    write: (text) => void res.write(text),
    end: () => void res.end(),
    onClose: (listener) =>
      void res.on('close', () => {
        if (!res.writableFinished) listener();
      }),
  };
}

/** Headers of a JSON answer. */
export const JSON_ANSWER_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json' };

/** A call's SSE stream: the SDK v1 transport's headers (2025), the SDK v2 handler's (2026-07-28). */
const sseHeaders = (cacheControl: string, accel: boolean): Record<string, string> => ({
  'content-type': 'text/event-stream',
  'cache-control': cacheControl,
  ...(accel && { 'x-accel-buffering': 'no' }),
});

/** The answer to a request the reader refused: `202` with no body for an accepted-and-dropped notification, else its JSON-RPC error (a `405` names `Allow: POST`). */
export function refusalAnswer(refusal: RequestRefusal, id: string | number | null): HttpAnswer {
  if (refusal.status === 202) return { status: 202, headers: {} };
  return {
    status: refusal.status,
    headers: refusal.status === 405 ? { ...JSON_ANSWER_HEADERS, allow: 'POST' } : JSON_ANSWER_HEADERS,
    body: JSON.stringify(jsonRpcErrorOf(id, refusal)),
  };
}

/** Writes a whole answer to a sink. */
export function writeAnswer(sink: AnswerSink, answer: HttpAnswer): void {
  sink.head(answer.status, { ...answer.headers });
  if (answer.body !== undefined) sink.write(answer.body);
  sink.end();
}

/** A JSON-RPC result or error answered in one JSON body. */
export function jsonAnswer(status: number, message: unknown): HttpAnswer {
  return {
    status,
    headers: JSON_ANSWER_HEADERS,
    body: typeof message === 'string' ? message : JSON.stringify(message),
  };
}

const unknownSessionText = (id: string): string =>
  `Session not found: "${id.slice(0, 100)}". Send initialize to start a new session.`;

/** 2025-11-25 and before: sessions from `initialize`, GET streams and DELETE, `notifications/cancelled`. */
const legacy: AnsweringEra = {
  era: 'legacy',
  state: 'session',
  streamRequest: (keepsSessions) => (keepsSessions ? 'session' : methodNotAllowed()),
  cancel: () => 'notification',
  unknownMethod: (method) => ({
    status: 200,
    code: -32601,
    message: `Method not found: ${String(method).slice(0, 100)}`,
  }),
  paramHeaderRefusal: () => undefined,
  streamHeaders: (accel) => sseHeaders('no-cache', accel),
};

/**
 * 2026-07-28: no session; every POST is answered on its own (a notification `202`); GET and
 * DELETE `405`; over HTTP a cancel is the client closing the call's stream (stdio still sends
 * `notifications/cancelled`); a method the registry lacks `404`; `Mcp-Param-*` checked.
 */
const modern: AnsweringEra = {
  era: 'modern',
  state: 'request',
  streamRequest: () => methodNotAllowed(),
  cancel: (transport) => (transport === 'http' ? 'closed-stream' : 'notification'),
  unknownMethod: (method) => methodNotFound(method),
  paramHeaderRefusal(headers, message, declared) {
    if (message.method !== 'tools/call' || declared === undefined || Object.keys(declared).length === 0) return;
    const reason = paramHeaderMismatch(headers, message, declared);
    if (reason === undefined) return undefined;
    const tool = (message.params as { name?: unknown } | undefined)?.name;
    return {
      status: 400,
      code: -32020,
      message: `Header mismatch: ${reason}. The tool ${JSON.stringify(tool)} marks that argument with x-mcp-header: send its Mcp-Param-* header with the same value (=?base64?...?= for non-ASCII).`,
    };
  },
  streamHeaders: (accel) => sseHeaders('no-cache, no-transform', accel),
};

/** The answering strategy of an era. */
export const answeringEra = (era: 'legacy' | 'modern'): AnsweringEra => (era === 'modern' ? modern : legacy);

/** A 2025 request naming a session this server does not know (expired, deleted, never opened): `404 -32001`. */
export function unknownSession(id: string): RequestRefusal {
  return { status: 404, code: -32001, message: unknownSessionText(id) };
}
