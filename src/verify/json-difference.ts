import { firstDifference } from '../transcript/first-difference.js';
import { lookAlikeNote, visibleText } from '../transcript/visible-text.js';

/** What kind of difference `verify` found. */
export type DifferenceKind =
  /** A value changed. */
  | 'changed'
  /** The golden has it, the live server did not send it. */
  | 'missing'
  /** The live server sent it, the golden does not have it. */
  | 'added'
  /** The JSON type changed (string vs number, object vs array...). */
  | 'type'
  /** A different number of messages (progress notifications, server requests). */
  | 'count'
  /** Messages in another order (progress after the result, say). */
  | 'order'
  /** Progress no longer streams over the call. */
  | 'streaming'
  /** The tool list changed (see the schema changes for the class). */
  | 'schema'
  /** The session could not be run (connection, server error). */
  | 'error';

/** One difference between a golden and what the live server sent. */
export interface Difference {
  /** Which message: `tools/call result`, `progress 3`, `server request 1 (sampling/createMessage)`, `tools/list`. */
  readonly where: string;
  /** RFC 9535 normalized path relative to the JSON-RPC message, in dot form (`$.result.content[0].text`). */
  readonly path: string;
  readonly expected?: unknown;
  readonly actual?: unknown;
  readonly kind: DifferenceKind;
  /** A sentence for differences that are not one value against another (counts, streaming, errors). */
  readonly message?: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `path` extended by a member name or an array index, in dot form where the name allows it. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key).replace(/^"|"$/g, "'")}]`;
}

const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/**
 * Every path where two JSON values differ, expected first, in document order: changed leaves,
 * members or items missing on one side, and JSON type changes. Object member order is not a
 * difference; array order is.
 */
export function diffJson(expected: unknown, actual: unknown, where: string, path = '$'): Difference[] {
  const te = typeOf(expected);
  const ta = typeOf(actual);
  if (te !== ta) return [{ where, path, expected, actual, kind: te === 'undefined' ? 'added' : 'type' }];
  if (te === 'array') {
    const e = expected as unknown[];
    const a = actual as unknown[];
    const out: Difference[] = [];
    for (let i = 0; i < Math.max(e.length, a.length); i++) {
      if (i >= a.length) out.push({ where, path: childPath(path, i), expected: e[i], kind: 'missing' });
      else if (i >= e.length) out.push({ where, path: childPath(path, i), actual: a[i], kind: 'added' });
      else out.push(...diffJson(e[i], a[i], where, childPath(path, i)));
    }
    return out;
  }
  if (te === 'object') {
    const e = expected as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    const out: Difference[] = [];
    for (const key of Object.keys(e)) {
      if (!Object.hasOwn(a, key)) out.push({ where, path: childPath(path, key), expected: e[key], kind: 'missing' });
      else out.push(...diffJson(e[key], a[key], where, childPath(path, key)));
    }
    for (const key of Object.keys(a)) {
      if (!Object.hasOwn(e, key)) out.push({ where, path: childPath(path, key), actual: a[key], kind: 'added' });
    }
    return out;
  }
  return Object.is(expected, actual) ? [] : [{ where, path, expected, actual, kind: 'changed' }];
}

/** A value as JSON, cut to about `width` characters around `at` (the first character that differs). */
function cut(text: string, at: number, width: number): string {
  if (text.length <= width) return text;
  const half = Math.floor(width / 2);
  const start = Math.max(0, Math.min(at - half, text.length - width));
  return `${start > 0 ? '…' : ''}${text.slice(start, start + width)}${start + width < text.length ? '…' : ''}`;
}

/**
 * One difference as a line: `progress 2 $.params.message: "step 2/4" != "step 2/5"` (expected
 * first; long values cut around the first character that differs), or its sentence. Invisible and
 * combining characters print as `\uXXXX` escapes, and two strings that read the same (NFC vs NFD)
 * say so.
 */
export function formatDifference(difference: Difference, width = 72): string {
  const head = `${difference.where} ${difference.path}`.trim();
  if (difference.message !== undefined) {
    // A sentence that already names its subject ("progress no longer streams: ...") reads best alone.
    return difference.path === '' && difference.message.startsWith(`${difference.where} `)
      ? difference.message
      : `${head}: ${difference.message}`;
  }
  const show = (value: unknown): string =>
    value === undefined ? '(absent)' : visibleText(JSON.stringify(value) ?? 'undefined');
  const e = show(difference.expected);
  const a = show(difference.actual);
  const at = firstDifference(e, a);
  const note =
    typeof difference.expected === 'string' && typeof difference.actual === 'string'
      ? lookAlikeNote(difference.expected, difference.actual)
      : undefined;
  return `${head}: ${cut(e, at, width)} != ${cut(a, at, width)}${note ? ` (${note})` : ''}`;
}
