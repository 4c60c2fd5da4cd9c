import { findJsonValueSpans } from '../transcript/json-spans.js';
import { compositeEnd, sameJsonScalar } from './json-text.js';

/** What the live request brought that the replayed frames must carry instead of the recorded values. */
export interface LiveStamp {
  /** JSON text of the live request's id (`undefined`: leave the recorded id). */
  readonly idJson?: string;
  /** JSON text of the live request's progress token (`undefined`: leave the recorded token). */
  readonly tokenJson?: string;
  /**
   * JSON text of the recorded request's progress token: only a recorded token equal to it is
   * replaced by the live one (`undefined`: no token is replaced).
   */
  readonly recordedTokenJson?: string;
}

/**
 * A recorded frame cut where the live values go, found once when the plan is built: every session
 * replaying the frame then only splices its own id and token between slices it shares with the
 * others, instead of scanning and copying the frame (3.2 MB for a long result) per session.
 */
export interface StampTemplate {
  /** The recorded text around the holes: one more piece than there are holes. */
  readonly texts: readonly string[];
  /** What each hole holds: the top-level `id` (answers only) or a progress notification's own token. */
  readonly holes: readonly ('id' | 'token')[];
  /** The recorded text in each hole, kept where the live request has no value for it. */
  readonly recorded: readonly string[];
}

const KEYS: ReadonlySet<string> = new Set(['id', 'params', '_meta', 'progressToken']);
const LINE_BREAK = /\r\n|\r|\n/g;

/** Where a live value goes in a message's text. */
export interface Hole {
  readonly start: number;
  readonly end: number;
  readonly kind: 'id' | 'token';
}

/**
 * The holes of one JSON message's text, offset by where the text starts in the frame: the
 * top-level `id` (when `withId`), whole even when it is an object or array; a progress
 * notification's own token (`params.progressToken`); and a server request's
 * `params._meta.progressToken`. A `progressToken` anywhere else, such as inside a tool's result,
 * is the server's data and stays as recorded.
 */
export function liveHoles(text: string, offset: number, withId: boolean): Hole[] {
  const holes: Hole[] = [];
  let params: readonly [number, number] | undefined;
  let meta: readonly [number, number] | undefined;
  const within = (at: number, range: readonly [number, number] | undefined): boolean =>
    range !== undefined && at > range[0] && at < range[1];
  for (const span of findJsonValueSpans(text, KEYS)) {
    const scalar = span.type === 'string' || span.type === 'number';
    if (span.depth === 1 && span.key === 'id' && withId) {
      const end = span.type === 'object' || span.type === 'array' ? compositeEnd(text, span.start) : span.end;
      holes.push({ start: offset + span.start, end: offset + end, kind: 'id' });
    } else if (span.depth === 1 && span.key === 'params') {
      params = span.type === 'object' ? [span.start, compositeEnd(text, span.start)] : undefined;
      meta = undefined;
    } else if (span.depth === 2 && span.key === '_meta' && within(span.start, params)) {
      meta = span.type === 'object' ? [span.start, compositeEnd(text, span.start)] : undefined;
    } else if (
      span.key === 'progressToken' &&
      scalar &&
      ((span.depth === 2 && within(span.start, params)) || (span.depth === 3 && within(span.start, meta)))
    ) {
      holes.push({ start: offset + span.start, end: offset + span.end, kind: 'token' });
    }
  }
  return holes;
}

/**
 * Finds where {@link stampFrame} would put the live values in a recorded frame: the top-level `id`
 * (when `withId`: only an answer carries the client's id) and a progress notification's own
 * token, in the `data:` lines of an SSE block or in a whole JSON body or stdio line.
 */
export function stampTemplate(raw: string, kind: 'sse' | 'json' | 'stdio' | 'text', withId: boolean): StampTemplate {
  let holes: Hole[] = [];
  if (kind === 'json' || kind === 'stdio') holes = liveHoles(raw, 0, withId);
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
    holes = liveHoles(data.join('\n'), 0, withId).map((hole) => {
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

/**
 * The live value for a token hole: the live token where the recorded text is the token the
 * recorded request sent, so a server that answered another token (a recorded echo bug) still
 * does on replay; the recorded text otherwise.
 */
export function liveToken(recorded: string, stamp: LiveStamp): string | undefined {
  if (stamp.tokenJson === undefined || stamp.recordedTokenJson === undefined) return undefined;
  return sameJsonScalar(recorded, stamp.recordedTokenJson) ? stamp.tokenJson : undefined;
}

/** The text of a template with the live values in its holes (the recorded ones where there is none). */
export function fillTemplate(template: StampTemplate, stamp: LiveStamp): string {
  if (template.holes.length === 0) return template.texts[0] as string;
  let out = template.texts[0] as string;
  for (let i = 0; i < template.holes.length; i++) {
    const recorded = template.recorded[i] as string;
    const live = template.holes[i] === 'id' ? stamp.idJson : liveToken(recorded, stamp);
    out += (live ?? recorded) + (template.texts[i + 1] as string);
  }
  return out;
}
