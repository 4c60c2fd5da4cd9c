import { canonicalJson } from './canonical-json.js';
import type { Frame, Transcript } from './frame.js';
import { normalizeTranscript } from './normalize.js';
import { allowedDrift, resolveTolerance, type TimingTolerance } from './timing-tolerance.js';

/** Above this many frame pairs to align (after the common head and tail), frames pair by position. */
const MAX_ALIGNED_PAIRS = 4_000_000;

/** Each frame's normalised content without its time: equal keys are the same frame in two recordings. */
function contentKeys(transcript: Transcript): string[] {
  return normalizeTranscript(transcript).frames.map(({ t: _t, ...rest }) => canonicalJson(rest));
}

/** Pairs of indexes `[previous, next]` of frames with equal content, in order (a longest common subsequence). */
function alignFrames(previous: readonly string[], next: readonly string[]): [number, number][] {
  const pairs: [number, number][] = [];
  let head = 0;
  while (head < previous.length && head < next.length && previous[head] === next[head]) {
    pairs.push([head, head]);
    head++;
  }
  let tail = 0;
  while (
    tail < previous.length - head &&
    tail < next.length - head &&
    previous[previous.length - 1 - tail] === next[next.length - 1 - tail]
  ) {
    tail++;
  }
  const n = previous.length - head - tail;
  const m = next.length - head - tail;
  const middle: [number, number][] = [];
  if (n > 0 && m > 0 && (n + 1) * (m + 1) <= MAX_ALIGNED_PAIRS) {
    // lengths[i][j]: the longest common run of previous[head+i..] and next[head+j..].
    const width = m + 1;
    const lengths = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lengths[i * width + j] =
          previous[head + i] === next[head + j]
            ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1
            : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (previous[head + i] === next[head + j]) {
        middle.push([head + i, head + j]);
        i++;
        j++;
      } else if ((lengths[(i + 1) * width + j] ?? 0) >= (lengths[i * width + j + 1] ?? 0)) i++;
      else j++;
    }
  } else if (n === m) {
    for (let k = 0; k < n; k++) if (previous[head + k] === next[head + k]) middle.push([head + k, head + k]);
  }
  pairs.push(...middle);
  for (let k = tail; k > 0; k--) pairs.push([previous.length - k, next.length - k]);
  return pairs;
}

/** When each exchange began in a transcript: the time of its first frame. */
function exchangeStarts(frames: readonly Frame[]): Map<number, number> {
  const starts = new Map<number, number>();
  for (const frame of frames) if (!starts.has(frame.exchange)) starts.set(frame.exchange, frame.t);
  return starts;
}

/**
 * Places `next`'s frames on the previous recording's clock: a frame whose time is kept (`onTime`)
 * gets its old time; any other frame keeps its distance from the last frame placed before it, so
 * it lands where it arrived relative to its neighbours. A kept time that would go back before the
 * frame placed before it is not kept: times never go back. `content` gives each frame's fields
 * (its own, or the previous recording's for a frame that did not change).
 */
function placeFrames(
  next: readonly Frame[],
  onTime: ReadonlyMap<number, number>,
  content: (n: number) => Frame,
): Frame[] {
  let shift = 0;
  let last = 0;
  return next.map((frame, n) => {
    const old = onTime.get(n);
    if (old !== undefined && old >= last) {
      shift = old - frame.t;
      last = old;
      return { ...content(n), t: old };
    }
    const t = Math.max(last, frame.t + shift);
    last = t;
    return { ...content(n), t };
  });
}

const sameFrames = (a: Transcript, b: Transcript): boolean => {
  const x = contentKeys(a);
  const y = contentKeys(b);
  return x.length === y.length && x.every((key, i) => key === y[i]);
};

/**
 * The transcript to write over a golden when it is re-recorded (by verify's update, by record, by
 * the vitest matcher's update), made reviewable: every frame whose content did not change (after normalisation)
 * and whose time is within `tolerance` of the golden's keeps the golden's line exactly, time and
 * volatile values (dates, session ids) included, so a changed text shows in a diff as the lines
 * that changed. A frame's time counts as unchanged, as the compare judges it, when its offset from
 * the start of its exchange is within `tolerance` of the golden's; an unchanged frame that arrived
 * off time keeps its old bytes with the new time, and a changed frame is `next`'s, each placed at
 * its distance from the frame before it. When old bytes would make the volatile values disagree
 * within the file (a changed frame carries a new session id), only the times are kept. Times never go back from one frame to
 * the next: once a frame arrives later than the tolerance allows, the frames after it move with it.
 *
 * @example
 * await writeGolden(path, keepRecordedTimes(await readGolden(path), live))
 */
export function keepRecordedTimes(previous: Transcript, next: Transcript, tolerance?: TimingTolerance): Transcript {
  const limits = resolveTolerance(tolerance);
  const pairs = alignFrames(contentKeys(previous), contentKeys(next));
  const oldStarts = exchangeStarts(previous.frames);
  const newStarts = exchangeStarts(next.frames);
  const same = new Map<number, Frame>();
  const onTime = new Map<number, number>();
  for (const [p, n] of pairs) {
    const old = previous.frames[p] as Frame;
    const now = next.frames[n] as Frame;
    same.set(n, old);
    // Judged as the compare judges timing: each frame's offset from the start of its exchange.
    const was = (old.t - (oldStarts.get(old.exchange) ?? 0)) / 1000;
    const is = (now.t - (newStarts.get(now.exchange) ?? 0)) / 1000;
    if (Math.abs(is - was) <= allowedDrift(limits, was)) onTime.set(n, old.t);
  }
  const whole = {
    header: next.header,
    frames: placeFrames(next.frames, onTime, (n) => same.get(n) ?? (next.frames[n] as Frame)),
  };
  if (sameFrames(whole, next)) return whole;
  return { header: next.header, frames: placeFrames(next.frames, onTime, (n) => next.frames[n] as Frame) };
}
