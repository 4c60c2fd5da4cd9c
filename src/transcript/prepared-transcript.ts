import { type CanonicalFrame, type CanonicalStream, type CompareMode, canonicalFrameText } from './canonical-view.js';
import type { Frame, Transcript, TranscriptHeader } from './frame.js';
import { normalizedRawPieces, normalizeTranscriptLazily } from './normalize.js';
import type { CompiledVolatile } from './volatile.js';

/** One stream of a prepared transcript: an exchange in one direction, its normalised frames in order. */
export interface PreparedStream {
  /** `exchange:direction`. */
  readonly stream: string;
  readonly frames: readonly Frame[];
}

/**
 * A transcript normalised once and cut into streams, ready to be compared any number of times:
 * the work that does not depend on what it is compared with, or how.
 */
export interface PreparedTranscript {
  /** The normalised header. */
  readonly header: TranscriptHeader;
  /** Streams in canonical order (by exchange, the client's direction first), `read` frames left out. */
  readonly streams: readonly PreparedStream[];
  /** Time of each exchange's first client->server frame: frame offsets are measured from it. */
  readonly starts: ReadonlyMap<number, number>;
  /** Characters of frame text held (`raw` and `rawBase64`), the measure of its memory. */
  readonly chars: number;
}

const CLIENT = 'client->server';

/**
 * Normalises a transcript and cuts it into streams (each exchange and direction on its own), so
 * two recordings compare equal when every stream carried the same frames in the same order,
 * however the streams interleaved. Large texts stay ropes over the recorded text (see
 * {@link normalizeTranscriptLazily}): preparing copies no megabytes, and neither does comparing.
 */
export function prepareTranscript(transcript: Transcript): PreparedTranscript {
  const normal = normalizeTranscriptLazily(transcript);
  const streams = new Map<string, Frame[]>();
  const starts = new Map<number, number>();
  let chars = 0;
  for (const frame of normal.frames) {
    if (frame.dir === CLIENT && !starts.has(frame.exchange)) starts.set(frame.exchange, frame.t);
    chars += (frame.raw?.length ?? 0) + (frame.rawBase64?.length ?? 0);
    if (frame.channel === 'read') continue;
    const stream = `${frame.exchange}:${frame.dir}`;
    const list = streams.get(stream);
    if (list) list.push(frame);
    else streams.set(stream, [frame]);
  }
  const ordered = [...streams]
    .map(([stream, frames]) => ({
      stream,
      frames,
      exchange: frames[0]?.exchange ?? 0,
      client: stream.endsWith(CLIENT),
    }))
    .sort((a, b) => a.exchange - b.exchange || (a.client ? -1 : 1) - (b.client ? -1 : 1))
    .map(({ stream, frames }) => ({ stream, frames }));
  return { header: normal.header, streams: ordered, starts, chars };
}

/** Channels whose canonical text depends on nothing but the channel, the direction and the frame's text. */
const TEXT_CHANNELS: ReadonlySet<string> = new Set(['sse', 'json', 'stdio', 'text']);

/** A frame whose canonical text is worked out the first time it is asked for. */
class LazyCanonicalFrame implements CanonicalFrame {
  private computed: string | undefined;

  constructor(
    readonly stream: string,
    readonly frame: Frame,
    private readonly mode: CompareMode,
    private readonly volatile: CompiledVolatile | undefined,
  ) {}

  get text(): string {
    this.computed ??= canonicalFrameText(this.frame, this.mode, this.volatile) ?? '';
    return this.computed;
  }
}

/**
 * The canonical streams of a prepared transcript under one mode and volatile set. Each frame's text
 * is computed only when asked for: frames compared with {@link sameCanonicalText} whose normalised
 * text is identical never need theirs.
 */
export function canonicalView(
  prepared: PreparedTranscript,
  mode: CompareMode = 'semantic',
  volatile?: CompiledVolatile,
): CanonicalStream[] {
  return prepared.streams.map(({ stream, frames }) => ({
    stream,
    frames: frames.map((frame) => new LazyCanonicalFrame(stream, frame, mode, volatile)),
  }));
}

/**
 * Whether two normalised frames have the same `raw`. A large one is read through its pieces (a
 * prepared frame keeps them: slices of the recorded text and the aliases between), walking
 * both sides' pieces together and comparing slices, which are views rather than copies: no
 * megabyte string is built to be compared and dropped.
 */
function sameRaw(x: Frame, y: Frame): boolean {
  const a = x.raw;
  const b = y.raw;
  if (a === undefined || b === undefined || a.length !== b.length) return a === b;
  const left = normalizedRawPieces(x);
  const right = normalizedRawPieces(y);
  if (left === undefined && right === undefined) return a === b;
  return samePieces(left ?? [a], right ?? [b]);
}

/** Whether two lists of pieces of equal total length join to the same text. */
function samePieces(left: readonly string[], right: readonly string[]): boolean {
  let i = 0;
  let j = 0;
  let atLeft = 0;
  let atRight = 0;
  while (i < left.length && j < right.length) {
    const l = left[i] as string;
    const r = right[j] as string;
    const n = Math.min(l.length - atLeft, r.length - atRight);
    if (n > 0 && l.slice(atLeft, atLeft + n) !== r.slice(atRight, atRight + n)) return false;
    atLeft += n;
    atRight += n;
    if (atLeft === l.length) {
      i++;
      atLeft = 0;
    }
    if (atRight === r.length) {
      j++;
      atRight = 0;
    }
  }
  return true;
}

/**
 * Whether two frames of views made under the same mode and volatile set have the same canonical
 * text. The canonical text of a body frame is a function of its channel, direction and text alone,
 * so identical text settles it without building either; otherwise the texts are compared.
 */
export function sameCanonicalText(a: CanonicalFrame | undefined, b: CanonicalFrame | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const x = a.frame;
  const y = b.frame;
  if (
    TEXT_CHANNELS.has(x.channel) &&
    x.channel === y.channel &&
    x.dir === y.dir &&
    x.rawBase64 === y.rawBase64 &&
    sameRaw(x, y)
  ) {
    return true;
  }
  return a.text === b.text;
}
