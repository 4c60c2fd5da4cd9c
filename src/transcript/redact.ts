import { type Frame, isProtocolHeader, type Transcript } from './frame.js';
import { findJsonValueSpans } from './json-spans.js';

/** Headers whose values are replaced by `<redacted>` by default. */
export const SECRET_HEADERS: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
];

/** JSON members that are protocol, never secrets: redaction never rewrites their values. */
const PROTOCOL_KEYS: ReadonlySet<string> = new Set([
  'jsonrpc',
  'id',
  'method',
  'requestId',
  'progressToken',
  'protocolVersion',
]);

const SECRET_QUERY = /([?&][^=&#]*(?:key|token|secret|password|auth)[^=&#]*=)[^&#]*/gi;

/** Options of {@link redactTranscript}. */
export interface RedactOptions {
  /** Header names (any case) whose values become `<redacted>`. @default SECRET_HEADERS */
  readonly headers?: readonly string[];
  /** Patterns replaced by `<redacted>` in bodies and header values, outside protocol fields. @default [] */
  readonly patterns?: readonly RegExp[];
}

/** The placeholder written in place of a secret. */
export const REDACTED = '<redacted>';

function redactText(text: string, patterns: readonly RegExp[], jsonAware: boolean): string {
  if (patterns.length === 0) return text;
  const protectedSpans = jsonAware ? findJsonValueSpans(text, PROTOCOL_KEYS) : [];
  let out = text;
  for (const pattern of patterns) {
    const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    out = out.replace(global, (match: string, ...rest: unknown[]) => {
      const offset = rest.find((r) => typeof r === 'number') as number;
      const overlaps = protectedSpans.some((s) => offset < s.end && offset + match.length > s.start);
      return overlaps || match.length === 0 ? match : REDACTED;
    });
  }
  return out;
}

function redactFrame(frame: Frame, secretHeaders: ReadonlySet<string>, patterns: readonly RegExp[]): Frame {
  const out: { -readonly [K in keyof Frame]: Frame[K] } = { ...frame };
  if (frame.headers) {
    out.headers = Object.fromEntries(
      Object.entries(frame.headers).map(([name, value]) => [
        name,
        secretHeaders.has(name.toLowerCase())
          ? REDACTED
          : isProtocolHeader(name)
            ? value
            : redactText(value, patterns, false),
      ]),
    );
  }
  if (frame.url !== undefined) {
    out.url = redactText(frame.url.replace(SECRET_QUERY, `$1${REDACTED}`), patterns, false);
  }
  if (frame.raw !== undefined && frame.channel !== 'read' && frame.channel !== 'end') {
    out.raw = redactText(frame.raw, patterns, true);
  }
  return out;
}

/**
 * Removes secrets before a transcript is written: the values of credential headers, secret-looking
 * query parameters, and matches of user patterns. Protocol fields (ids, methods, progress tokens)
 * are never touched, so a token that merely looks like a secret still reaches the golden.
 *
 * @example
 * redactTranscript(transcript, { patterns: [/sk-[A-Za-z0-9]{20,}/] })
 */
export function redactTranscript(transcript: Transcript, options: RedactOptions = {}): Transcript {
  const secretHeaders = new Set((options.headers ?? SECRET_HEADERS).map((h) => h.toLowerCase()));
  const patterns = options.patterns ?? [];
  return {
    header: transcript.header,
    frames: transcript.frames.map((frame) => redactFrame(frame, secretHeaders, patterns)),
  };
}
