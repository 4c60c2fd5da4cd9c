/** Direction of a frame on the wire. */
export type Direction = 'client->server' | 'server->client';

/**
 * What a frame is:
 * - `http`: a request line and headers (client->server) or a status and headers (server->client);
 * - `json`: a JSON body (a POST body, or a JSON response);
 * - `sse`: one server-sent event block, blank line included;
 * - `stdio`: one newline-delimited line;
 * - `text`: a body that is neither JSON nor SSE (an HTML error page, say);
 * - `read`: one read from the socket or pipe, kept because coalesced reads are evidence of buffering;
 * - `end`: how a body or stream ended.
 */
export type Channel = 'http' | 'json' | 'sse' | 'stdio' | 'text' | 'read' | 'end';

/** How a body or stream ended. */
export type EndReason =
  /** The peer finished it. */
  | 'complete'
  /** The reader stopped reading (the SDK cancels 202 bodies; a client dropping a stream). */
  | 'cancelled'
  /** The connection failed. */
  | 'error'
  /** Still open when the recording stopped (a cancelled call's stream stays open, for example). */
  | 'open';

/**
 * One unit on the wire. `t` is integer microseconds since the transcript began, on a monotonic
 * clock. Text is exactly as received: `raw` when the bytes are valid UTF-8, `rawBase64` otherwise.
 */
export interface Frame {
  readonly t: number;
  readonly dir: Direction;
  readonly channel: Channel;
  /** 1-based HTTP exchange (request/response pair); for stdio, the request a line belongs to (0: none). */
  readonly exchange: number;
  readonly raw?: string;
  readonly rawBase64?: string;
  /** `http` client->server: the request method. */
  readonly method?: string;
  /** `http` client->server: the request path and query. */
  readonly url?: string;
  /** `http` server->client: the status code. */
  readonly status?: number;
  /** `http`: header names lower-cased, in the order received, secrets redacted. */
  readonly headers?: Readonly<Record<string, string>>;
  /** `read`: bytes in this read. */
  readonly size?: number;
  /** `end`: how the body or stream ended. */
  readonly reason?: EndReason;
  /** `end` with reason `error`: the error text. */
  readonly error?: string;
}

/** The transcript's first line: what was recorded, how, and with which versions. */
export interface TranscriptHeader {
  readonly format: typeof GOLDEN_FORMAT;
  /** MCP protocol version the session negotiated (or asked for). */
  readonly protocolVersion: string;
  readonly transport: 'http' | 'stdio';
  /** What was recorded: a URL (port normalised) or a command line. */
  readonly target: string;
  /** Scenario name, when recorded from a scenario. */
  readonly scenario?: string;
  readonly tool?: string;
  readonly arguments?: unknown;
  /** `mcp-golden <version>`. */
  readonly recorder: string;
  /** Free-form facts about the recording (server switches, token used, cancel step). */
  readonly notes?: Readonly<Record<string, unknown>>;
}

/** Everything recorded in one session, in order. */
export interface Transcript {
  readonly header: TranscriptHeader;
  readonly frames: readonly Frame[];
}

/** Format identifier written on the first line of every golden. */
export const GOLDEN_FORMAT: 'mcp-golden/1' = 'mcp-golden/1';

/** Channels whose `raw` text is a body: concatenated per exchange and direction, they give the body bytes. */
export const BODY_CHANNELS: ReadonlySet<Channel> = new Set(['json', 'sse', 'stdio', 'text']);
