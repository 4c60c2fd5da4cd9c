import type { JsonRpcMessage } from '../transcript/frame-content.js';
import type { IncomingRequest, ResponseSink } from './http-exchange.js';

/** A request no golden matched, handed to an {@link UnmatchedFallback} instead of being refused. */
export interface FallbackRequest {
  /** The replay session it came in (the same object for every request of that session). */
  readonly session: object;
  /** The replay's session id, to be sent back in place of the live server's. */
  readonly sessionId: string | null;
  /** The body of the `initialize` that opened this session, when the replay saw one. */
  readonly initialize: string | undefined;
  readonly request: IncomingRequest;
  readonly sink: ResponseSink;
  /** `modern`: a 2026-07-28 request (no session, `sessionId` null): pass it on as it came. @default 'legacy' */
  readonly era?: 'legacy' | 'modern';
  /**
   * The replay session's standalone GET stream, when the client has one open: where the live
   * server's own requests on its standalone stream (a 2025 server's `elicitation/create`) go.
   */
  readonly standalone?: StandaloneStream | undefined;
}

/** A replay session's standalone GET stream, as a fallback writes to it. */
export interface StandaloneStream {
  /** Writes whole SSE events (nothing once the client closed it). */
  write(text: string): void;
  /** Runs `listener` when the client closes it. */
  onClose(listener: () => void): void;
}

/**
 * What answers a request no golden matched, at the adapter's edge: the engine stays synchronous and
 * refuses it as before, and the adapter gives the request here instead of writing that refusal (the
 * CLI's `--unmatched passthrough` forwards it to the live server and records it).
 */
export interface UnmatchedFallback {
  /** Answers the request, writing to its sink. */
  forward(unmatched: FallbackRequest): void;
  /** The replay session ended (the client's DELETE, or the replay closing). */
  sessionEnded(session: object): void;
  /**
   * Whether a client message belongs to a call this fallback passed through: a
   * `notifications/cancelled` naming one, or the client's answer to a request the live server
   * sent during one. The adapter hands such a message to {@link UnmatchedFallback.forward} instead
   * of answering it from the goldens, so the live server sees the cancel or the answer.
   */
  claims?(session: object, message: JsonRpcMessage): boolean;
}

/** What answers the requests no golden matched in a stdio replay (one session: the process's). */
export interface StdioFallback {
  /**
   * Answers `line`, a request no golden matched, writing the answer's lines with `write` (`answer`
   * marks a response, as the replay's own writer does); `initialize` is the client's initialize line.
   */
  forward(line: string, initialize: string | undefined, write: (line: string, answer: boolean) => void): void;
  /**
   * Whether a client message belongs to a call this fallback passed through (a cancel naming one,
   * the client's answer to the live server's request): it then goes to {@link StdioFallback.forward}.
   */
  claims?(message: JsonRpcMessage): boolean;
  /** The client closed stdin: resolves once what was forwarded was answered (or given up) and recorded. */
  end(): Promise<void>;
}
