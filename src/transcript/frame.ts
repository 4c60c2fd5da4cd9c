import type * as z from 'zod';
import type { FrameSchema, HeaderLineSchema } from './golden-schema.js';

/** Direction of a frame on the wire. */
export type Direction = Frame['dir'];

/**
 * What a frame is:
 * - `http`: a request line and headers (client->server) or a status and headers (server->client);
 * - `json`: a JSON body (a POST body, or a JSON response);
 * - `sse`: one server-sent event block, blank line included;
 * - `stdio`: one newline-delimited line;
 * - `text`: a body that is neither JSON nor SSE (an HTML error page, say);
 * - `read`: one read from the socket or pipe, kept because coalesced reads are evidence of buffering;
 * - `end`: how a body or stream ended;
 * - `close`: the client closed the response stream of an exchange (client->server), which is how a
 *   modern (2026-07-28) client cancels a call over HTTP.
 */
export type Channel = Frame['channel'];

/**
 * How a body or stream ended: `complete` (the peer finished it), `cancelled` (the reader stopped
 * reading: the SDK cancels 202 bodies, a client drops a stream), `error` (the connection failed),
 * `open` (still open when the recording stopped, as a cancelled call's stream stays).
 */
export type EndReason = NonNullable<Frame['reason']>;

/**
 * One unit on the wire. `t` is integer microseconds since the transcript began, on a monotonic
 * clock. Text is exactly as received: `raw` when the bytes are valid UTF-8, `rawBase64` otherwise.
 * The fields and their meaning are declared once, in {@link FrameSchema}.
 */
export type Frame = Readonly<z.infer<typeof FrameSchema>>;

/**
 * The transcript's first line: what was recorded, how, and with which versions (declared in
 * {@link HeaderLineSchema}; its frame count is written by the serializer, not kept here).
 */
export type TranscriptHeader = Readonly<Omit<z.infer<typeof HeaderLineSchema>, 'frames'>>;

/**
 * The protocol era of a recording: `legacy` (2025-06-18/2025-11-25: initialize, sessions,
 * `Last-Event-ID`) or `modern` (2026-07-28: `server/discover`, a per-request `_meta` envelope and
 * `Mcp-*` headers, no sessions, cancel by closing the stream).
 */
export type Era = NonNullable<TranscriptHeader['era']>;

/** The era a golden was recorded in: a header without one was written before eras were recorded, in the legacy era. */
export function eraOf(header: Pick<TranscriptHeader, 'era'>): Era {
  return header.era ?? 'legacy';
}

/** The protocol revision of the modern era. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/**
 * True for an HTTP header whose value is protocol, not transport or credential: the modern era's
 * request metadata (`Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`), the protocol version, the session id
 * and the resumption cursor. Goldens keep them as sent; redaction patterns never rewrite them.
 */
export function isProtocolHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    lower === 'mcp-method' ||
    lower === 'mcp-name' ||
    lower.startsWith('mcp-param-') ||
    lower === 'mcp-protocol-version' ||
    lower === 'mcp-session-id' ||
    lower === 'last-event-id'
  );
}

/** Everything recorded in one session, in order. */
export interface Transcript {
  readonly header: TranscriptHeader;
  readonly frames: readonly Frame[];
}

export { GOLDEN_FORMAT } from './golden-schema.js';

/** Channels whose `raw` text is a body: concatenated per exchange and direction, they give the body bytes. */
export const BODY_CHANNELS: ReadonlySet<Channel> = new Set(['json', 'sse', 'stdio', 'text']);
