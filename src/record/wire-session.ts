import type { JsonRpcMessage } from '../transcript/frame-content.js';

/** One JSON-RPC message received on a call's stream, with the SSE event id that carried it. */
export interface StreamedMessage {
  readonly message: JsonRpcMessage;
  /** SSE `id:` of the event (HTTP with an event store only). */
  readonly eventId?: string;
}

/** A GET stream read in the background: its HTTP status (0 until its headers arrive) and what came on it. */
export interface WatchedStream {
  readonly status: number;
  /** Each message, with the ms since the GET was sent. */
  readonly messages: readonly { readonly message: JsonRpcMessage; readonly atMs: number }[];
}

/** The messages answering one request, as they arrive. */
export interface CallStream {
  /** Next message, or `undefined` when the stream ended. Rejects after `timeoutMs` with `E_TIMEOUT`. */
  next(timeoutMs: number): Promise<StreamedMessage | undefined>;
  /** Stops reading: the connection is dropped (HTTP) or further lines are ignored (stdio). */
  drop(): Promise<void>;
  /**
   * The client closes the stream on purpose: the modern era's cancel over HTTP, recorded as a
   * `close` frame. On stdio it only stops reading, as {@link drop}.
   */
  close(): Promise<void>;
  /** The last SSE event id seen on this stream (priming events included). */
  readonly lastEventId: string | undefined;
  /** The last SSE `retry:` value seen: how long the server asks a client to wait before reconnecting. */
  readonly retryMs: number | undefined;
}

/**
 * A connection to an MCP server at the wire level: raw JSON-RPC messages out, raw frames recorded,
 * nothing interpreted by an SDK client. HTTP and stdio implement it.
 */
export interface WireSession {
  readonly transport: 'http' | 'stdio';
  /**
   * Sends a request and returns the stream of messages that answer it. `headers`: extra request
   * headers for this request only (HTTP; the modern era's `Mcp-Param-*`).
   */
  request(message: JsonRpcMessage, headers?: Readonly<Record<string, string>>): Promise<CallStream>;
  /** Sends a notification (HTTP: expects 202). */
  notify(message: JsonRpcMessage): Promise<void>;
  /** Resumes a dropped stream after `lastEventId` (HTTP GET with `Last-Event-ID`). */
  resume(lastEventId: string): Promise<CallStream>;
  /**
   * Opens the standalone stream where the server sends requests and notifications of its own (HTTP
   * GET without `Last-Event-ID`); `undefined` when the server offers none (405). `close()` drops it.
   * Absent where the transport has no such stream (stdio: every message shares stdout).
   */
  listen?(): Promise<CallStream | undefined>;
  /**
   * Opens a GET stream in the background and keeps what comes, without judging it: the standalone
   * stream, or a resumption after `lastEventId`. Never throws and waits for nothing (a gateway may
   * hold even the headers back); `close()` drops it. Absent where the transport has no GET (stdio).
   * The check watches what a gateway does with these streams, rather than relying on them.
   */
  watch?(options?: { readonly lastEventId?: string }): WatchedStream;
  /** Ends the session (HTTP DELETE; stdio: close stdin and stop the child). */
  close(): Promise<void>;
}
