import { replaceSpans } from '../transcript/json-spans.js';
import { type LiveStamp, liveHoles, liveToken } from './stamp-template.js';

export type { LiveStamp } from './stamp-template.js';

/**
 * Rewrites the top-level `id` and a progress notification's own `params.progressToken` (where it
 * is the recorded request's token) in one line of JSON text; every other byte stays.
 */
export function stampJsonText(text: string, stamp: LiveStamp): string {
  const replacements = liveHoles(text, 0, stamp.idJson !== undefined).flatMap((hole) => {
    const live = hole.kind === 'id' ? stamp.idJson : liveToken(text.slice(hole.start, hole.end), stamp);
    return live === undefined ? [] : [{ start: hole.start, end: hole.end, text: live }];
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
