import { setOwn } from './canonical-json.js';
import type { Frame, Transcript } from './frame.js';
import { findJsonValueSpans, spliceSpans } from './json-spans.js';
import { splitLineEnds } from './line-ends.js';

/** Kinds of volatile value replaced by numbered aliases. */
export type AliasKind = 'session' | 'event-id' | 'request-id' | 'token' | 'port';

/**
 * Headers that say how bytes were carried, not what was said; the normalised form drops them
 * (a short SSE body may come back with `content-length` one run and chunked the next).
 */
export const TRANSPORT_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'content-length',
  'keep-alive',
  'transfer-encoding',
  'user-agent',
  'accept-encoding',
  'accept-language',
  'sec-fetch-mode',
]);

const JSON_KEYS: ReadonlySet<string> = new Set(['id', 'requestId', 'progressToken']);
const PORT_PATTERN = /(127\.0\.0\.1|localhost|\[::1\]):(\d{1,5})/g;

/** Numbered aliases handed out while normalising one transcript. */
export class AliasTable {
  private readonly tables = new Map<AliasKind, Map<string, number>>();

  /** The alias number of `value` within `kind`, assigned in order of first appearance. */
  number(kind: AliasKind, value: string): number {
    let table = this.tables.get(kind);
    if (!table) {
      table = new Map();
      this.tables.set(kind, table);
    }
    let n = table.get(value);
    if (n === undefined) {
      n = table.size + 1;
      table.set(value, n);
    }
    return n;
  }

  /** `<kind-n>` for a string value. */
  text(kind: AliasKind, value: string): string {
    return `<${kind}-${this.number(kind, value)}>`;
  }

  /**
   * The alias of a JSON value (its source text), keeping its JSON type: a string becomes
   * `"<kind-n>"`, a number becomes the number `n - 1` (so a client's usual ids 0, 1, 2 read as
   * themselves). Other types are left as they are.
   */
  json(kind: AliasKind, source: string): string {
    const first = source[0];
    if (first === '"') return JSON.stringify(`<${kind}-${this.number(kind, `s:${source}`)}>`);
    if (first === '-' || (first !== undefined && first >= '0' && first <= '9')) {
      return String(this.number(kind, `n:${source}`) - 1);
    }
    return source;
  }
}

function aliasPorts(text: string, aliases: AliasTable): string {
  return text.replace(PORT_PATTERN, (_, host: string, port: string) => `${host}:${aliases.text('port', port)}`);
}

/** {@link normalizeJsonText} as pieces to join (slices of `text` around the rewritten values). */
function jsonPieces(text: string, aliases: AliasTable): string[] {
  const spans = findJsonValueSpans(text, JSON_KEYS).filter(
    (span) =>
      (span.type === 'string' || span.type === 'number') &&
      (span.key !== 'id' || span.depth === 1) &&
      (span.key !== 'requestId' || span.depth === 2),
  );
  return spliceSpans(
    text,
    spans.map((span) => ({
      start: span.start,
      end: span.end,
      text: aliases.json(span.key === 'progressToken' ? 'token' : 'request-id', text.slice(span.start, span.end)),
    })),
  );
}

/** Rewrites ids, request ids and progress tokens inside one line of JSON text. */
export function normalizeJsonText(text: string, aliases: AliasTable): string {
  return jsonPieces(text, aliases).join('');
}

const dataPrefix = (line: string): string => (line.startsWith('data: ') ? 'data: ' : 'data:');

/**
 * The data lines of an SSE block after normalising, by their index in `parts`, when the block has
 * more than one: their data joined with LF is the one message a client reads (a JSON message may be
 * spread over several lines), so it is normalised whole and split back (an alias holds no line break).
 */
function multiLineData(parts: readonly string[], aliases: AliasTable): Map<number, string> | undefined {
  const lines: number[] = [];
  for (let i = 0; i < parts.length; i += 2) if ((parts[i] as string).startsWith('data:')) lines.push(i);
  if (lines.length < 2) return undefined;
  const data = lines.map((i) => (parts[i] as string).slice(dataPrefix(parts[i] as string).length)).join('\n');
  const normalized = jsonPieces(data, aliases).join('').split('\n');
  return new Map(lines.map((i, n) => [i, dataPrefix(parts[i] as string) + normalized[n]]));
}

function ssePieces(raw: string, aliases: AliasTable): string[] {
  const parts = splitLineEnds(raw);
  const pieces: string[] = [];
  const joined = multiLineData(parts, aliases);
  for (let i = 0; i < parts.length; i++) {
    const line = parts[i] as string;
    if (i % 2 === 1) pieces.push(line);
    else if (line.startsWith('data:')) {
      const whole = joined?.get(i);
      if (whole !== undefined) pieces.push(whole);
      else pieces.push(dataPrefix(line), ...jsonPieces(line.slice(dataPrefix(line).length), aliases));
    } else if (line.startsWith('id:')) {
      const prefix = line.startsWith('id: ') ? 'id: ' : 'id:';
      const value = line.slice(prefix.length);
      pieces.push(value === '' ? line : prefix + aliases.text('event-id', value));
    } else {
      pieces.push(line);
    }
  }
  return pieces;
}

/** Text this long is kept as its pieces rather than copied into one string: see {@link normalizedRawPieces}. */
const LARGE_TEXT = 64 * 1024;
const rawPieces = new WeakMap<Frame, readonly string[]>();

/**
 * The pieces whose concatenation is the `raw` of a large frame normalised here (slices of the
 * recorded text and the aliases between them), so a comparison can read it without first copying
 * megabytes into one string. `undefined` for other frames.
 */
export function normalizedRawPieces(frame: Frame): readonly string[] | undefined {
  return rawPieces.get(frame);
}

function normalizeHeaders(headers: Readonly<Record<string, string>>, aliases: AliasTable): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (TRANSPORT_HEADERS.has(name)) continue;
    let normal: string;
    if (name === 'mcp-session-id') normal = aliases.text('session', value);
    else if (name === 'last-event-id') normal = aliases.text('event-id', value);
    else if (name === 'date' || name === 'expires' || name === 'last-modified') normal = '<date>';
    else normal = aliasPorts(value, aliases);
    setOwn(out, name, normal);
  }
  return out;
}

function normalizeFrame(frame: Frame, aliases: AliasTable, ropes: boolean): Frame {
  const out: { -readonly [K in keyof Frame]: Frame[K] } = { ...frame };
  if (frame.headers) out.headers = normalizeHeaders(frame.headers, aliases);
  if (frame.url !== undefined) out.url = aliasPorts(frame.url, aliases);
  const pieces =
    frame.raw === undefined
      ? undefined
      : frame.channel === 'sse'
        ? ssePieces(frame.raw, aliases)
        : frame.channel === 'json' || frame.channel === 'stdio'
          ? jsonPieces(frame.raw, aliases)
          : undefined;
  if (pieces === undefined) return out;
  if (!ropes || (frame.raw?.length ?? 0) < LARGE_TEXT) {
    out.raw = pieces.join('');
    return out;
  }
  // A rope of the pieces: one string to every reader, and no copy until one needs it flat.
  let raw = '';
  for (const piece of pieces) raw += piece;
  out.raw = raw;
  rawPieces.set(out, pieces);
  return out;
}

/**
 * Replaces volatile values with numbered aliases that stay consistent within the transcript:
 * session ids (`<session-1>`), SSE event ids and `Last-Event-ID` (`<event-id-3>`), JSON-RPC
 * request ids and `requestId` (`<request-id-2>`), progress tokens (`<token-1>`), dates
 * (`<date>`) and loopback ports (`<port-1>`). Tokens and ids keep their JSON type: a string
 * becomes `"<token-1>"`, a number becomes the number `n - 1`. Transport-level headers are dropped.
 * Every other byte is left as it was; timing (`t`) is untouched and compared separately.
 * Normalising twice gives the same result as normalising once.
 *
 * @example
 * expect(normalizeTranscript(live)).toEqual(normalizeTranscript(golden))
 */
export function normalizeTranscript(transcript: Transcript, aliases: AliasTable = new AliasTable()): Transcript {
  const header = { ...transcript.header, target: aliasPorts(transcript.header.target, aliases) };
  return { header, frames: transcript.frames.map((frame) => normalizeFrame(frame, aliases, false)) };
}

/**
 * {@link normalizeTranscript} for comparing: a large frame's text is a rope of slices of the
 * recorded text and the aliases between them, readable through {@link normalizedRawPieces},
 * instead of a fresh copy of megabytes.
 */
export function normalizeTranscriptLazily(transcript: Transcript): Transcript {
  const aliases = new AliasTable();
  const header = { ...transcript.header, target: aliasPorts(transcript.header.target, aliases) };
  return { header, frames: transcript.frames.map((frame) => normalizeFrame(frame, aliases, true)) };
}
