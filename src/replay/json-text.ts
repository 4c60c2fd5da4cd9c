import { findJsonValueSpans, type JsonValueSpan, nextStructural } from '../transcript/json-spans.js';

/** Offset just after the string that opens at `start` (a quote ends it after an even run of backslashes). */
function stringEnd(text: string, start: number): number {
  let quote = text.indexOf('"', start + 1);
  while (quote >= 0) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    quote = text.indexOf('"', quote + 1);
  }
  return text.length;
}

/**
 * Offset just after the object or array that opens at `start` (its matching bracket, strings
 * skipped); the end of the text when it is cut short.
 */
export function compositeEnd(text: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    i = nextStructural(text, i);
    if (i < 0) return text.length;
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      i = stringEnd(text, i);
      continue;
    }
    depth += code === 0x7b || code === 0x5b ? 1 : -1;
    i++;
    if (depth === 0) return i;
  }
  return text.length;
}

/** The raw text of the live request's id and progress token, as the client wrote them. */
export interface RawRequestValues {
  /** Text of the top-level `id`. */
  readonly idJson?: string;
  /** Text of `params._meta.progressToken`. */
  readonly tokenJson?: string;
}

const KEYS: ReadonlySet<string> = new Set(['id', 'params', '_meta', 'progressToken']);

const LINE_BREAK = /[\r\n]/;

/** A value's text as it goes into a replayed frame: as written, unless it spans lines (a line holds one message). */
function valueText(text: string, start: number, end: number): string {
  const raw = text.slice(start, end);
  if (!LINE_BREAK.test(raw)) return raw;
  try {
    return JSON.stringify(JSON.parse(raw));
  } catch {
    return raw.replace(/\r\n|\r|\n/g, ' ');
  }
}

/**
 * Finds the top-level `id` and `params._meta.progressToken` of one JSON-RPC message's text
 * without parsing it into numbers and strings, so a replay answers with the very text the client
 * sent: `12345678901234567890`, `1e3` and `"a\u0062c"` come back as written. The last of repeated
 * members counts, as `JSON.parse` reads them.
 */
export function rawRequestValues(text: string): RawRequestValues {
  let idJson: string | undefined;
  let tokenJson: string | undefined;
  // Where `params` and its `_meta` open; each one's end is found only when a member may lie inside
  // it, so a request without `_meta` (most) costs one pass over its text, not one per container.
  let params: OpenContainer | undefined;
  let meta: OpenContainer | undefined;
  const within = (at: number, container: OpenContainer | undefined): boolean => {
    if (container === undefined || at <= container.start) return false;
    container.end ??= compositeEnd(text, container.start);
    return at < container.end;
  };
  const spans = findJsonValueSpans(text, KEYS);
  for (let s = 0; s < spans.length; s++) {
    const span = spans[s] as JsonValueSpan;
    if (span.key === 'id' && span.depth === 1) {
      const composite = span.type === 'object' || span.type === 'array';
      idJson = valueText(text, span.start, composite ? compositeEnd(text, span.start) : span.end);
    } else if (span.key === 'params' && span.depth === 1 && span.type === 'object') {
      params = { start: span.start, end: undefined };
      meta = undefined;
      tokenJson = undefined;
    } else if (span.key === '_meta' && span.depth === 2 && span.type === 'object' && within(span.start, params)) {
      meta = { start: span.start, end: undefined };
      tokenJson = undefined;
    } else if (span.key === 'progressToken' && span.depth === 3 && within(span.start, meta)) {
      const composite = span.type === 'object' || span.type === 'array';
      tokenJson = valueText(text, span.start, composite ? compositeEnd(text, span.start) : span.end);
    }
  }
  // Members set one by one, not spread from conditional objects (an object each, per request).
  const values: { idJson?: string; tokenJson?: string } = {};
  if (idJson !== undefined) values.idJson = idJson;
  if (tokenJson !== undefined) values.tokenJson = tokenJson;
  return values;
}

/** An object member's value that opens at `start`; its end, once found. */
interface OpenContainer {
  readonly start: number;
  end: number | undefined;
}

const INTEGER = /^-?\d+$/;

/**
 * Whether two JSON texts of a string or number hold the same value: `"a\u0062c"` is `"abc"` and
 * `1e3` is `1000`, but integers are compared digit for digit, so a server that answered
 * `9007199254740993` with `9007199254740992` is not taken for an echo.
 */
export function sameJsonScalar(a: string, b: string): boolean {
  if (a === b) return true;
  if (INTEGER.test(a) && INTEGER.test(b)) return BigInt(a) === BigInt(b);
  try {
    return Object.is(JSON.parse(a), JSON.parse(b));
  } catch {
    return false;
  }
}

/**
 * The text of each item of a JSON array (a batch), as written; `undefined` when the text is not one
 * well-formed array, so a caller falls back to the parsed items.
 */
export function arrayItemTexts(text: string): string[] | undefined {
  let i = text.indexOf('[');
  if (i < 0 || text.slice(0, i).trim() !== '') return undefined;
  const items: string[] = [];
  const skipSpace = (at: number): number => {
    let j = at;
    while (j < text.length && /\s/.test(text[j] as string)) j++;
    return j;
  };
  i = skipSpace(i + 1);
  if (text[i] === ']') return text.slice(i + 1).trim() === '' ? items : undefined;
  while (i < text.length) {
    const first = text[i];
    let end: number;
    if (first === '{' || first === '[') end = compositeEnd(text, i);
    else if (first === '"') end = stringEnd(text, i);
    else {
      end = i;
      while (end < text.length && !/[\s,\]]/.test(text[end] as string)) end++;
    }
    items.push(text.slice(i, end));
    i = skipSpace(end);
    if (text[i] === ']') return text.slice(i + 1).trim() === '' ? items : undefined;
    if (text[i] !== ',') return undefined;
    i = skipSpace(i + 1);
  }
  return undefined;
}
