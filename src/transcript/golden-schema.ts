import * as z from 'zod';
import { GoldenNotesSchema } from './golden-notes.js';

/**
 * The golden format, said once. The TypeScript types ({@link Frame}, {@link TranscriptHeader}),
 * the reader's validation (`parseTranscript`) and the published `golden.schema.json`
 * (`z.toJSONSchema`, see {@link goldenJsonSchema}) all come from these schemas.
 *
 * Unknown-field policy of mcp-golden/1: every object is closed. Extra facts about a recording go
 * in the header's `notes` (typed keys in `golden-notes.ts`, any other key allowed: the one extension
 * point); frames take no other fields.
 */

/** Format identifier written on the first line of every golden. */
export const GOLDEN_FORMAT: 'mcp-golden/1' = 'mcp-golden/1';

const count = (expected: string) =>
  z.int({ error: expected }).min(0, { error: expected }).max(Number.MAX_SAFE_INTEGER, { error: expected });

/** Canonical base64 only: `Buffer.from(x, 'base64')` would skip bad characters silently. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** No lone UTF-16 surrogate: no UTF-8 byte sequence decodes to one. */
const WELL_FORMED = /^[^\uD800-\uDFFF]*$/u;

/** The protocol eras a golden can be recorded in: 2025-era sessions and 2026-07-28 per-request exchanges. */
export const ERAS = ['legacy', 'modern'] as const;

/** Schema of the first line: what was recorded, how, and with which versions. */
export const HeaderLineSchema = z
  .strictObject({
    format: z.literal(GOLDEN_FORMAT, { error: `"${GOLDEN_FORMAT}"` }).meta({
      description: 'Format identifier. A reader refuses an older, newer or unknown format with a clear error.',
    }),
    era: z.enum(ERAS, { error: '"legacy" or "modern"' }).optional().meta({
      description:
        'Protocol era of the session: legacy (2025-06-18/2025-11-25: initialize, sessions, Last-Event-ID) or modern (2026-07-28: server/discover, a per-request _meta envelope and Mcp-* headers, no sessions, cancel by closing the stream). Absent: legacy (goldens written before eras were recorded).',
    }),
    protocolVersion: z.string({ error: 'a string' }).meta({
      description:
        'MCP protocol version of the session: asked for in initialize (legacy) or sent in every request envelope (modern), e.g. 2025-11-25 or 2026-07-28.',
    }),
    transport: z
      .enum(['http', 'stdio'], { error: '"http" or "stdio"' })
      .meta({ description: 'Transport the session used.' }),
    target: z
      .string({ error: 'a string' })
      .meta({ description: 'What was recorded: a URL (loopback port normalised) or a command line.' }),
    scenario: z.string({ error: 'a string' }).optional().meta({
      description:
        'Scenario name when recorded from a scenario list: recording that scenario again regenerates it (for your own server: the same server and scenario list).',
    }),
    tool: z.string({ error: 'a string' }).optional().meta({ description: 'Tool the scenario calls.' }),
    arguments: z.unknown().optional().meta({ description: 'Tool arguments the scenario sends.' }),
    recorder: z.string({ error: 'a string' }).meta({ description: '`mcp-golden <version>` that wrote the file.' }),
    notes: GoldenNotesSchema.optional().meta({
      description:
        'Facts about the recording: the scenario’s token, cancel and resume steps, answers, volatile fields and lint exceptions, and how it was recorded. The extension point: any other key is allowed here, and nowhere else.',
    }),
    frames: count('the number of frame lines that follow, a whole number >= 0').meta({
      description: 'Number of frame lines that follow; a file with fewer was cut short.',
    }),
  })
  .meta({ description: 'First line: what was recorded, how, and with which versions.' });

const DIRECTIONS = ['client->server', 'server->client'] as const;
const CHANNELS = ['http', 'json', 'sse', 'stdio', 'text', 'read', 'end', 'close'] as const;
const END_REASONS = ['complete', 'cancelled', 'error', 'open'] as const;

/** Schema of a frame line: one unit on the wire. `raw` and `rawBase64` exclude each other. */
export const FrameSchema = z
  .strictObject({
    t: count('whole microseconds >= 0').meta({
      description:
        'Microseconds since the transcript began, monotonic clock. For a body frame: when the read that completed it arrived.',
    }),
    dir: z
      .enum(DIRECTIONS, { error: '"client->server" or "server->client"' })
      .meta({ description: 'Direction on the wire.' }),
    channel: z.enum(CHANNELS, { error: `one of ${CHANNELS.join(', ')}` }).meta({
      description:
        'http: request line + headers or status + headers; json: a JSON body; sse: one server-sent event block including its blank line; stdio: one newline-delimited line; text: any other body; read: one read from socket or pipe (chunk boundary); end: how a body or stream ended; close (client->server): the client closed the response stream of this exchange at t, which is how a modern (2026-07-28) client cancels a call over HTTP.',
    }),
    exchange: count('a whole number >= 0').meta({
      description: '1-based HTTP request/response pair; on stdio, the request the line belongs to (0: none).',
    }),
    raw: z
      .string({ error: 'a string' })
      .regex(WELL_FORMED, {
        error:
          'well-formed text: it holds a lone UTF-16 surrogate, which no UTF-8 byte sequence gives; bytes that are not UTF-8 belong in "rawBase64"',
      })
      .optional()
      .meta({ description: "The frame's bytes exactly as received, when they are valid UTF-8." }),
    rawBase64: z
      .string({ error: 'a string' })
      .regex(BASE64, { error: 'canonical base64 (A-Z, a-z, 0-9, +, /, with = padding)' })
      .optional()
      .meta({
        description: "The frame's bytes in base64, only when they are not valid UTF-8.",
        contentEncoding: 'base64',
      }),
    method: z.string({ error: 'a string' }).optional().meta({ description: 'http client->server: request method.' }),
    url: z
      .string({ error: 'a string' })
      .optional()
      .meta({ description: 'http client->server: request path and query (secrets in the query redacted).' }),
    status: count('a whole number (HTTP status)').optional().meta({ description: 'http server->client: status code.' }),
    headers: z
      .record(z.string(), z.string({ error: 'an object of strings' }), { error: 'an object of strings' })
      .optional()
      .meta({
        description:
          'http: headers, names lower-cased; credential headers read <redacted>. Request headers with protocol meaning (mcp-method, mcp-name, mcp-param-*, mcp-protocol-version, mcp-session-id, last-event-id) are kept as sent: user redaction patterns never rewrite them.',
      }),
    size: count('a whole number of bytes >= 0').optional().meta({ description: 'read: number of bytes in this read.' }),
    reason: z
      .enum(END_REASONS, { error: `one of ${END_REASONS.join(', ')}` })
      .optional()
      .meta({
        description:
          'end: the peer finished it, the reader cancelled it, the connection failed, or it was still open when recording stopped.',
      }),
    error: z.string({ error: 'a string' }).optional().meta({ description: 'end with reason error: the error text.' }),
  })
  .refine((frame) => frame.raw === undefined || frame.rawBase64 === undefined, {
    error: 'one of "raw" and "rawBase64", not both',
    path: ['rawBase64'],
  })
  .meta({ description: 'One unit on the wire.' });

/** Any line of a golden: the header (line 1) or a frame. */
export const GoldenLineSchema = z.union([HeaderLineSchema, FrameSchema]);

/**
 * The published JSON Schema of one golden line (`mcp-golden/schema.json`), generated from the zod
 * schemas. A zod refinement has no JSON Schema form, so the raw/rawBase64 exclusion is added here.
 */
export function goldenJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(GoldenLineSchema, {
    target: 'draft-2020-12',
    io: 'input',
    override: (ctx) => {
      const properties = ctx.jsonSchema.properties;
      if (properties && 'rawBase64' in properties) ctx.jsonSchema.not = { required: ['raw', 'rawBase64'] };
    },
  }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return {
    $schema,
    $id: 'https://mcp-golden.dev/schema/mcp-golden-1.json',
    title: `mcp-golden transcript line (format ${GOLDEN_FORMAT})`,
    description:
      "A golden is JSON Lines: UTF-8, LF line ends, object keys sorted. Line 1 is a header; every other line is one frame. Validate each line against this schema. Objects are closed except the header's notes: extra facts go there.",
    ...rest,
  };
}
