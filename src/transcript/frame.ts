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
 * - `end`: how a body or stream ended.
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

/** Everything recorded in one session, in order. */
export interface Transcript {
  readonly header: TranscriptHeader;
  readonly frames: readonly Frame[];
}

export { GOLDEN_FORMAT } from './golden-schema.js';

/** Channels whose `raw` text is a body: concatenated per exchange and direction, they give the body bytes. */
export const BODY_CHANNELS: ReadonlySet<Channel> = new Set(['json', 'sse', 'stdio', 'text']);
