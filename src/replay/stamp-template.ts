import { findJsonValueSpans } from '../transcript/json-spans.js';
import type { LiveStamp } from './stamp.js';

/**
 * A recorded frame cut where the live values go, found once when the plan is built: every session
 * replaying the frame then only splices its own id and token between slices it shares with the
 * others, instead of scanning and copying the frame (3.2 MB for a long result) per session.
 */
export interface StampTemplate {
  /** The recorded text around the holes: one more piece than there are holes. */
  readonly texts: readonly string[];
  /** What each hole holds: the top-level `id` (answers only) or a progress token. */
  readonly holes: readonly ('id' | 'token')[];
  /** The recorded text in each hole, kept where the live request has no value for it. */
  readonly recorded: readonly string[];
}

const KEYS: ReadonlySet<string> = new Set(['id', 'progressToken']);
const LINE_BREAK = /\r\n|\r|\n/g;

interface Hole {
  readonly start: number;
  readonly end: number;
  readonly kind: 'id' | 'token';
}

/** The holes of one line of JSON text, offset by where the text starts in the frame. */
function holesOf(text: string, offset: number, withId: boolean): Hole[] {
  const holes: Hole[] = [];
  for (const span of findJsonValueSpans(text, KEYS)) {
    if (span.key === 'id' && span.depth === 1 && withId) {
      holes.push({ start: offset + span.start, end: offset + span.end, kind: 'id' });
    } else if (span.key === 'progressToken' && (span.type === 'string' || span.type === 'number')) {
      holes.push({ start: offset + span.start, end: offset + span.end, kind: 'token' });
    }
  }
  return holes;
}

/**
 * Finds where {@link stampFrame} would put the live values in a recorded frame: the top-level `id`
 * (when `withId`: only an answer carries the client's id) and every progress token, in the `data:`
 * lines of an SSE block or in a whole JSON body or stdio line.
 */
export function stampTemplate(raw: string, kind: 'sse' | 'json' | 'stdio' | 'text', withId: boolean): StampTemplate {
  let holes: Hole[] = [];
  if (kind === 'json' || kind === 'stdio') holes = holesOf(raw, 0, withId);
  else if (kind === 'sse') {
    // The event's data is its `data:` lines joined with LF (a JSON message may span several); each
    // line's place in the joined data is mapped back to its place in the frame.
    const lines: { readonly at: number; readonly from: number; readonly length: number }[] = [];
    const data: string[] = [];
    let joined = 0;
    let lineStart = 0;
    for (const lineEnd of [...[...raw.matchAll(LINE_BREAK)].map((m) => m.index), raw.length]) {
      if (raw.startsWith('data:', lineStart)) {
        const from = lineStart + (raw.startsWith('data: ', lineStart) ? 6 : 5);
        if (data.length > 0) joined++;
        lines.push({ at: joined, from, length: lineEnd - from });
        data.push(raw.slice(from, lineEnd));
        joined += lineEnd - from;
      }
      lineStart = lineEnd + (raw[lineEnd] === '\r' && raw[lineEnd + 1] === '\n' ? 2 : 1);
    }
    // A stamped value (a string or number) never spans a line break, so a hole lies within one line.
    // Holes come in order, so the line of each is found by walking forward.
    let n = 0;
    holes = holesOf(data.join('\n'), 0, withId).map((hole) => {
      while (n + 1 < lines.length && (lines[n + 1] as (typeof lines)[number]).at <= hole.start) n++;
      const line = lines[n] as (typeof lines)[number];
      const shift = line.from - line.at;
      return { start: hole.start + shift, end: hole.end + shift, kind: hole.kind };
    });
  }
  const texts: string[] = [];
  let at = 0;
  for (const hole of holes) {
    texts.push(raw.slice(at, hole.start));
    at = hole.end;
  }
  texts.push(raw.slice(at));
  return {
    texts,
    holes: holes.map((h) => h.kind),
    recorded: holes.map((h) => raw.slice(h.start, h.end)),
  };
}

/** The text of a template with the live values in its holes (the recorded ones where there is none). */
export function fillTemplate(template: StampTemplate, stamp: LiveStamp): string {
  if (template.holes.length === 0) return template.texts[0] as string;
  let out = template.texts[0] as string;
  for (let i = 0; i < template.holes.length; i++) {
    const live = template.holes[i] === 'id' ? stamp.idJson : stamp.tokenJson;
    out += (live ?? template.recorded[i]) + (template.texts[i + 1] as string);
  }
  return out;
}
