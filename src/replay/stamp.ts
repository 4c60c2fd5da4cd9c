import { findJsonValueSpans, replaceSpans } from '../transcript/json-spans.js';

/** What the live request brought that the replayed frames must carry instead of the recorded values. */
export interface LiveStamp {
  /** JSON text of the live request's id (`undefined`: leave the recorded id). */
  readonly idJson?: string;
  /** JSON text of the live request's progress token (`undefined`: leave the recorded token). */
  readonly tokenJson?: string;
}

const KEYS: ReadonlySet<string> = new Set(['id', 'progressToken']);

/** Rewrites the top-level `id` and every `progressToken` in one line of JSON text; every other byte stays. */
export function stampJsonText(text: string, stamp: LiveStamp): string {
  const replacements = findJsonValueSpans(text, KEYS).flatMap((span) => {
    if (span.key === 'id' && span.depth === 1 && stamp.idJson !== undefined) {
      return [{ start: span.start, end: span.end, text: stamp.idJson }];
    }
    if (
      span.key === 'progressToken' &&
      stamp.tokenJson !== undefined &&
      (span.type === 'string' || span.type === 'number')
    ) {
      return [{ start: span.start, end: span.end, text: stamp.tokenJson }];
    }
    return [];
  });
  return replacements.length === 0 ? text : replaceSpans(text, replacements);
}

/**
 * Stamps a recorded frame's text: the data of an SSE block (its `data:` lines joined with LF, as a
 * client reads them, so a JSON message spread over several lines is one message), or a whole JSON
 * body or stdio line.
 */
export function stampFrame(raw: string, kind: 'sse' | 'json' | 'stdio' | 'text', stamp: LiveStamp): string {
  if (stamp.idJson === undefined && stamp.tokenJson === undefined) return raw;
  if (kind === 'json' || kind === 'stdio') return stampJsonText(raw, stamp);
  if (kind !== 'sse') return raw;
  const parts = raw.split(/(\r\n|\r|\n)/);
  const dataLines: number[] = [];
  for (let i = 0; i < parts.length; i += 2) if ((parts[i] as string).startsWith('data:')) dataLines.push(i);
  const prefixOf = (line: string): string => (line.startsWith('data: ') ? 'data: ' : 'data:');
  const data = dataLines.map((i) => (parts[i] as string).slice(prefixOf(parts[i] as string).length)).join('\n');
  // A stamped value is JSON text, which holds no line break: the stamped data splits back line for line.
  const stamped = stampJsonText(data, stamp).split('\n');
  for (const [n, i] of dataLines.entries()) parts[i] = prefixOf(parts[i] as string) + stamped[n];
  return parts.join('');
}

/**
 * The text of an SSE event as a stdio line (its `data`), or a stdio line as an SSE event, so a
 * golden recorded on one transport can be served on the other.
 */
export function dataOf(raw: string, kind: 'sse' | 'json' | 'stdio' | 'text'): string | undefined {
  if (kind === 'json' || kind === 'stdio') return raw.replace(/\r?\n$/, '');
  if (kind !== 'sse') return undefined;
  const data = raw
    .split(/\r\n|\r|\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5));
  return data.length === 0 || (data.length === 1 && data[0] === '') ? undefined : data.join('\n');
}
