/** Where the value of a member sits in a JSON text. */
export interface JsonValueSpan {
  /** Member name. */
  readonly key: string;
  /** Object nesting depth of the member: 1 for the top-level object. */
  readonly depth: number;
  /** Offset of the value's first character. */
  readonly start: number;
  /** Offset just after the value's last character. */
  readonly end: number;
  /** JSON type of the value; objects and arrays are reported but not descended as values. */
  readonly type: 'string' | 'number' | 'literal' | 'object' | 'array';
}

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const BACKSLASH = 0x5c;

const isWhitespace = (code: number): boolean => code === SPACE || code === TAB || code === LF || code === CR;

const QUOTE = 0x22;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Offset of the next character at or after `from` that can change a scanner's state (a bracket or
 * a quote); -1 when there is none. A loop over char codes, not a global regex: `exec` made a match
 * array per bracket and quote, and the replay scans every live request (a few KB per session).
 * Only the short runs between strings are stepped through; strings are skipped with `indexOf`.
 */
export function nextStructural(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (
      code === QUOTE ||
      code === OPEN_BRACE ||
      code === CLOSE_BRACE ||
      code === OPEN_BRACKET ||
      code === CLOSE_BRACKET
    ) {
      return i;
    }
  }
  return -1;
}
/** A key that `JSON.parse` would have to unescape, or would refuse (a raw control character). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: raw control characters are what JSON.parse refuses in a key.
const NEEDS_JSON_PARSE = /[\\\x00-\x1f]/;

/**
 * Offset just after the string that opens at `start`. The closing quote is found with `indexOf`
 * (a quote ends the string when an even number of backslashes precedes it), so a long string
 * costs a native search rather than a step per character.
 */
function skipString(text: string, start: number): number {
  let quote = text.indexOf('"', start + 1);
  while (quote >= 0) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    quote = text.indexOf('"', quote + 1);
  }
  return unterminatedEnd(text, start);
}

/** Where a step-by-step scan of an unterminated string stops: past the end, by two if it ends in an escape. */
function unterminatedEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) i += text.charCodeAt(i) === BACKSLASH ? 2 : 1;
  return i;
}

function skipWhitespace(text: string, start: number): number {
  let i = start;
  while (i < text.length && isWhitespace(text.charCodeAt(i))) i++;
  return i;
}

function scalarEnd(text: string, start: number): number {
  let i = start;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (isWhitespace(code) || code === 0x2c || code === 0x7d || code === 0x5d) break;
    i++;
  }
  return i;
}

function keyOf(text: string, start: number, end: number): string {
  const inner = text.slice(start + 1, end - 1);
  return text.charCodeAt(end - 1) === 0x22 && end - start >= 2 && !NEEDS_JSON_PARSE.test(inner)
    ? inner
    : (JSON.parse(text.slice(start, end)) as string);
}

const COLON = 0x3a;

/** The kind of container open at each depth of the scan in progress (1: object, 0: array); grown as needed. */
let openKinds: Uint8Array = new Uint8Array(64);

/** The deepest nesting whose buffer is kept for the next scan (4 KiB). */
const KEPT_DEPTH = 4096;

function grown(kinds: Uint8Array): Uint8Array {
  const more = new Uint8Array(kinds.length * 2);
  more.set(kinds);
  return more;
}

/** The keys of a set as a list, made once per set. */
const keyLists = new WeakMap<ReadonlySet<string>, readonly string[]>();

/**
 * The member name of the key string at `start`..`end` when `keys` holds it, else `undefined`. A
 * key written without escapes is compared in place with each wanted key, so the keys of a
 * message that are not wanted (most) are never copied out of its text; one with an escape or a
 * raw control character is read by {@link keyOf}, as before.
 */
function wantedKey(text: string, start: number, end: number, keys: ReadonlySet<string>): string | undefined {
  let plain = end - start >= 2 && text.charCodeAt(end - 1) === QUOTE;
  for (let i = start + 1; plain && i < end - 1; i++) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH || code < SPACE) plain = false;
  }
  if (!plain) {
    const key = keyOf(text, start, end);
    return keys.has(key) ? key : undefined;
  }
  let list = keyLists.get(keys);
  if (list === undefined || list.length !== keys.size) {
    list = [...keys];
    keyLists.set(keys, list);
  }
  const length = end - start - 2;
  for (let k = 0; k < list.length; k++) {
    const key = list[k] as string;
    if (key.length === length && text.startsWith(key, start + 1)) return key;
  }
  return undefined;
}

function valueType(first: string | undefined): JsonValueSpan['type'] {
  if (first === '"') return 'string';
  if (first === '{') return 'object';
  if (first === '[') return 'array';
  return first === 't' || first === 'f' || first === 'n' ? 'literal' : 'number';
}

/**
 * Finds the value spans of members named in `keys`, in one pass over the text, without parsing it
 * into objects, so a caller can rewrite those values and leave every other byte as it was.
 * Malformed text yields the spans found before the problem. Strings are skipped with native
 * searches, so a long string costs little; only the text between strings is stepped through.
 */
export function findJsonValueSpans(text: string, keys: ReadonlySet<string>): JsonValueSpan[] {
  const spans: JsonValueSpan[] = [];
  // The containers open at each depth (1: an object), in a buffer shared by every scan: the scan
  // is synchronous, and a list per scan cost every replayed request an allocation as it grew.
  let depth = 0;
  let i = 0;
  while (i < text.length) {
    i = nextStructural(text, i);
    if (i < 0) break;
    const code = text.charCodeAt(i);
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (depth === openKinds.length) openKinds = grown(openKinds);
      openKinds[depth++] = code === OPEN_BRACE ? 1 : 0;
      i++;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      if (depth > 0) depth--;
      i++;
    } else {
      const end = skipString(text, i);
      const afterKey = skipWhitespace(text, end);
      if (depth > 0 && openKinds[depth - 1] === 1 && text.charCodeAt(afterKey) === COLON) {
        const key = wantedKey(text, i, end, keys);
        const valueStart = skipWhitespace(text, afterKey + 1);
        if (key !== undefined) {
          const type = valueType(text[valueStart]);
          const valueEnd =
            type === 'string'
              ? skipString(text, valueStart)
              : type === 'object' || type === 'array'
                ? valueStart + 1
                : scalarEnd(text, valueStart);
          spans.push({ key, depth, start: valueStart, end: valueEnd, type });
        }
        i = valueStart;
      } else {
        i = end;
      }
    }
  }
  // A hostile body nested millions deep grew the shared buffer: it is not kept past the scan.
  if (openKinds.length > KEPT_DEPTH) openKinds = new Uint8Array(64);
  return spans;
}

/**
 * The pieces that, joined, make `text` with the spans (non-overlapping) replaced: slices of `text`
 * between the new texts, so a caller can compare or join them without copying the text first.
 */
export function spliceSpans(
  text: string,
  replacements: readonly { start: number; end: number; text: string }[],
): string[] {
  const sorted = [...replacements].sort((a, b) => a.start - b.start);
  const pieces: string[] = [];
  let at = 0;
  for (const r of sorted) {
    pieces.push(text.slice(at, r.start), r.text);
    at = r.end;
  }
  pieces.push(text.slice(at));
  return pieces;
}

/** Replaces spans (non-overlapping) with new text, leaving every other character as it was. */
export function replaceSpans(
  text: string,
  replacements: readonly { start: number; end: number; text: string }[],
): string {
  const sorted = [...replacements].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const r of sorted) {
    out += text.slice(at, r.start) + r.text;
    at = r.end;
  }
  return out + text.slice(at);
}
