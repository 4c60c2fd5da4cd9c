import { atomizeChangeset, diff } from 'json-diff-ts';
import type { CanonicalFrame, CanonicalStream, CompareMode } from './canonical-view.js';
import { counted } from './counted.js';
import { firstDifference } from './first-difference.js';
import type { Transcript } from './frame.js';
import { describeMessage, frameMessage, type JsonRpcMessage } from './frame-content.js';
import { resultContent, textOf } from './json-rpc.js';
import { canonicalView, type PreparedTranscript, prepareTranscript, sameCanonicalText } from './prepared-transcript.js';
import { allowedDrift, resolveTolerance, type TimingTolerance } from './timing-tolerance.js';
import { lookAlikeNote, visibleText } from './visible-text.js';
import { type CompiledVolatile, compileVolatile, type VolatileOptions } from './volatile.js';
import { firstCallExchange, isWarmUp } from './warm-up.js';

/** Options of {@link compareTranscripts}. */
export interface CompareOptions {
  /** Compare normalised raw bytes instead of parsed JSON-RPC. @default false */
  readonly bytes?: boolean;
  /** `ignore`: no timing check; `order`: order within each stream only; or numeric tolerance. @default 'order' */
  readonly timing?: 'ignore' | 'order' | TimingTolerance;
  /** Most changes listed. @default 20 */
  readonly maxChanges?: number;
  /** Values not compared in server messages: ignored JSONPaths and masked patterns. @default {} */
  readonly volatile?: VolatileOptions;
}

/** The verdict of {@link compareTranscripts}. */
export interface Comparison {
  readonly pass: boolean;
  /** One line with numbers: `frame 12 of 40 differs (...)`. */
  readonly headline: string;
  /** Readable change set of the first difference (json-diff-ts paths). */
  readonly changes: readonly string[];
  /** Canonical text of the first differing stream, expected and actual, long lines cut around the difference. */
  readonly expectedText: string;
  readonly actualText: string;
  /** Frames outside the timing tolerance. */
  readonly timing: readonly string[];
}

interface ContentBlock {
  readonly type?: string;
  readonly text?: string;
}

/** Text around `at`, invisible and combining characters escaped so two look-alike strings print differently. */
const short = (text: string, at: number, width = 24): string =>
  visibleText(
    `${at > width ? '…' : ''}${text.slice(Math.max(0, at - width), at + width)}${at + width < text.length ? '…' : ''}`,
  );

/** The result's content blocks, each read for the text {@link describeBlocks} compares. */
function contentOf(message: JsonRpcMessage | undefined): ContentBlock[] | undefined {
  return resultContent(message)?.map((block): ContentBlock => {
    const text = textOf(block);
    return text === undefined ? {} : { text };
  });
}

/** Describes how result content blocks differ: moved, merged, truncated or changed. */
export function describeBlocks(expected: readonly ContentBlock[], actual: readonly ContentBlock[]): string | undefined {
  for (const [i, block] of expected.entries()) {
    const got = actual[i];
    if (got?.text === block.text) continue;
    const moved = actual.findIndex((b) => b.text === block.text);
    if (moved >= 0) return `block ${i} moved to position ${moved}`;
    if (got?.text !== undefined && block.text !== undefined) {
      if (block.text.startsWith(got.text))
        return `block ${i} truncated to ${got.text.length} of ${block.text.length} characters`;
      if (
        got.text.startsWith(block.text) &&
        expected[i + 1]?.text !== undefined &&
        got.text.includes(expected[i + 1]?.text ?? '')
      ) {
        return `block ${i} merged with block ${i + 1} (${counted(actual.length, 'block')} instead of ${expected.length})`;
      }
      const at = firstDifference(block.text, got.text);
      const note = lookAlikeNote(block.text, got.text);
      return `block ${i} differs at character ${at}: expected "${short(block.text, at)}", got "${short(got.text, at)}"${note ? ` (${note})` : ''}`;
    }
    if (!got) return `${counted(actual.length, 'block')} instead of ${expected.length}: block ${i} is missing`;
  }
  return actual.length > expected.length
    ? `${counted(actual.length, 'block')} instead of ${expected.length}`
    : undefined;
}

function messageChanges(expected: JsonRpcMessage, actual: JsonRpcMessage, max: number): string[] {
  const changes = atomizeChangeset(diff(expected, actual));
  const lines = changes.slice(0, max).map((change) => {
    const show = (v: unknown): string => {
      const text = visibleText(JSON.stringify(v) ?? 'undefined');
      return text.length > 80 ? `${text.slice(0, 77)}…` : text;
    };
    if (change.type === 'UPDATE') return `~ ${change.path}: ${show(change.oldValue)} → ${show(change.value)}`;
    if (change.type === 'ADD') return `+ ${change.path}: ${show(change.value)}`;
    return `- ${change.path}: ${show(change.value)}`;
  });
  if (changes.length > max) lines.push(`… and ${changes.length - max} more changes`);
  return lines;
}

function describeFrame(frame: CanonicalFrame | undefined): string {
  if (!frame) return 'nothing';
  const message = frameMessage(frame.frame);
  return message ? describeMessage(message) : frame.text.length > 100 ? `${frame.text.slice(0, 97)}…` : frame.text;
}

function windowed(text: string, at: number): string {
  const lines = text.split('\n');
  let offset = 0;
  return lines
    .map((line) => {
      const start = offset;
      offset += line.length + 1;
      if (line.length <= 400) return visibleText(line);
      const local = Math.min(Math.max(0, at - start), line.length);
      return visibleText(
        `${local > 150 ? '…' : ''}${line.slice(Math.max(0, local - 150), local + 150)}${local + 150 < line.length ? '…' : ''}`,
      );
    })
    .join('\n');
}

function streamText(stream: CanonicalStream | undefined): string {
  return stream ? stream.frames.map((f) => f.text).join('\n') : '';
}

function timingProblems(
  actual: ReadonlyMap<string, CanonicalStream>,
  expected: readonly CanonicalStream[],
  timing: TimingTolerance,
  a: PreparedTranscript,
  e: PreparedTranscript,
): string[] {
  const tolerance = resolveTolerance(timing);
  const problems: string[] = [];
  const firstCall = firstCallExchange(expected.flatMap((s) => s.frames.map((f) => f.frame)));
  for (const stream of expected) {
    const other = actual.get(stream.stream);
    if (!other) continue;
    const exchange = Number(stream.stream.split(':')[0]);
    // The handshake and the listings before the first call are the server's cold start, not its streaming.
    if (isWarmUp(exchange, firstCall)) continue;
    const expectedStart = e.starts.get(exchange) ?? 0;
    const actualStart = a.starts.get(exchange) ?? 0;
    stream.frames.forEach((frame, i) => {
      const got = other.frames[i];
      if (!got || frame.frame.dir === 'client->server' || !sameCanonicalText(got, frame)) return;
      const want = (frame.frame.t - expectedStart) / 1000;
      const was = (got.frame.t - actualStart) / 1000;
      const allowed = allowedDrift(tolerance, want);
      if (Math.abs(was - want) > allowed) {
        problems.push(
          `exchange ${exchange} ${describeFrame(frame)} arrived at ${was.toFixed(1)} ms, expected ${want.toFixed(1)} ms ± ${allowed.toFixed(1)} ms`,
        );
      }
    });
  }
  return problems;
}

/**
 * Compares a transcript with a golden after normalisation, stream by stream. Semantic by default
 * (parsed JSON-RPC per frame); `bytes: true` compares normalised raw text. Reads are not compared;
 * timing is checked separately under the tolerance asked for.
 *
 * @example
 * const result = compareTranscripts(live, golden, { timing: { absMs: 50, relGap: 0.5 } })
 * if (!result.pass) console.log(result.headline)
 */
export function compareTranscripts(actual: Transcript, expected: Transcript, options: CompareOptions = {}): Comparison {
  return comparePrepared(prepareTranscript(actual), prepareTranscript(expected), options);
}

/**
 * {@link compareTranscripts} on transcripts prepared beforehand, so a golden compared many times
 * is normalised once ({@link prepareTranscript}).
 */
export function comparePrepared(
  actual: PreparedTranscript,
  expected: PreparedTranscript,
  options: CompareOptions = {},
): Comparison {
  const mode: CompareMode = options.bytes ? 'bytes' : 'semantic';
  const volatile: CompiledVolatile | undefined = options.volatile ? compileVolatile(options.volatile) : undefined;
  const a = canonicalView(actual, mode, volatile);
  const e = canonicalView(expected, mode, volatile);
  const actualById = new Map(a.map((s) => [s.stream, s]));
  const expectedById = new Map(e.map((s) => [s.stream, s]));
  const messageOf = (frame: CanonicalFrame | undefined): JsonRpcMessage | undefined => {
    const message = frame && frameMessage(frame.frame);
    return message && volatile && frame.frame.dir === 'server->client'
      ? (volatile.apply(message) as JsonRpcMessage)
      : message;
  };
  const total = e.reduce((n, s) => n + s.frames.length, 0);
  const max = options.maxChanges ?? 20;
  let seen = 0;
  const streams = [...e.map((s) => s.stream), ...a.map((s) => s.stream).filter((id) => !expectedById.has(id))];
  for (const id of streams) {
    const want = expectedById.get(id);
    const got = actualById.get(id);
    const [exchange, dir] = id.split(':');
    const length = Math.max(want?.frames.length ?? 0, got?.frames.length ?? 0);
    for (let i = 0; i < length; i++) {
      const w = want?.frames[i];
      const g = got?.frames[i];
      if (sameCanonicalText(w, g)) continue;
      const n = seen + i + 1;
      const where = `exchange ${exchange}, ${dir}, frame ${i + 1}`;
      const wm = messageOf(w);
      const gm = messageOf(g);
      let detail: string;
      let changes: string[];
      if (wm && gm) {
        const blocks =
          contentOf(wm) && contentOf(gm) ? describeBlocks(contentOf(wm) ?? [], contentOf(gm) ?? []) : undefined;
        changes = messageChanges(wm, gm, max);
        const kinds = [describeMessage(wm), describeMessage(gm)];
        detail =
          blocks ??
          (kinds[0] !== kinds[1] ? `expected ${kinds[0]}, got ${kinds[1]}` : (changes[0] ?? `${kinds[0]} differs`));
      } else if (!g) {
        detail = `expected ${describeFrame(w)}, but the stream has only ${got?.frames.length ?? 0} frames`;
        changes = [`- ${w?.text.slice(0, 200) ?? ''}`];
      } else if (!w) {
        detail = `unexpected ${describeFrame(g)} after the ${want?.frames.length ?? 0} expected frames`;
        changes = [`+ ${g.text.slice(0, 200)}`];
      } else {
        detail = `expected ${describeFrame(w)}, got ${describeFrame(g)}`;
        changes = [`- ${w.text.slice(0, 200)}`, `+ ${g.text.slice(0, 200)}`];
      }
      const expectedText = streamText(want);
      const actualText = streamText(got);
      const at = firstDifference(expectedText, actualText);
      return {
        pass: false,
        headline: `frame ${n} of ${total} differs (${where}): ${detail}`,
        changes,
        expectedText: windowed(expectedText, at),
        actualText: windowed(actualText, at),
        timing: [],
      };
    }
    seen += want?.frames.length ?? 0;
  }
  const tolerance = options.timing;
  const timing =
    tolerance && typeof tolerance === 'object' ? timingProblems(actualById, e, tolerance, actual, expected) : [];
  return {
    pass: timing.length === 0,
    headline:
      timing.length === 0
        ? `all ${total} frames match`
        : `all ${total} frames match, but ${timing.length} arrived outside the timing tolerance`,
    changes: [],
    expectedText: '',
    actualText: '',
    timing,
  };
}
