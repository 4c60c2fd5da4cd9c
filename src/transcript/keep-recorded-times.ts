import { canonicalJson } from './canonical-json.js';
import type { Frame, Transcript } from './frame.js';
import { normalizeTranscript } from './normalize.js';
import { allowedDrift, resolveTolerance, type TimingTolerance } from './timing-tolerance.js';
import { firstCallExchange, isWarmUp } from './warm-up.js';

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

/**
 * Each `next` frame's counterpart in `previous`, by index: the frame with equal content (from the
 * alignment), or, where a run of frames between two aligned ones changed one for one, the frame in
 * the same place with the same channel and direction (its content changed; its time still counts).
 */
function counterparts(previous: readonly Frame[], next: readonly Frame[], pairs: readonly [number, number][]) {
  const match: (number | undefined)[] = new Array(next.length).fill(undefined);
  let [p0, n0] = [0, 0];
  for (const [p, n] of [...pairs, [previous.length, next.length] as [number, number]]) {
    if (p - p0 === n - n0) {
      for (let k = 0; k < n - n0; k++) {
        const [was, is] = [previous[p0 + k] as Frame, next[n0 + k] as Frame];
        if (was.channel === is.channel && was.dir === is.dir) match[n0 + k] = p0 + k;
      }
    }
    if (n < next.length) match[n] = p;
    [p0, n0] = [p + 1, n + 1];
  }
  return match;
}

/** Each frame's offset from the start of its exchange, in µs. */
function exchangeOffsets(frames: readonly Frame[]): number[] {
  const starts = new Map<number, number>();
  return frames.map((frame) => {
    if (!starts.has(frame.exchange)) starts.set(frame.exchange, frame.t);
    return frame.t - (starts.get(frame.exchange) ?? 0);
  });
}

/**
 * The time to write for each frame of `next`, on the previous recording's clock. An exchange starts
 * at its counterpart's time when the frames before it leave room, else at its live distance from
 * the frame before it. Within an exchange, a frame is on time, as the compare judges timing, when
 * its offset from the start of its exchange is within `limits` of its counterpart's; it keeps its
 * counterpart's offset. Any other frame is written at its live offset, kept between the frame
 * before it (times never go back) and the next on-time frame of its exchange (so a changed or early
 * frame never pushes an on-time frame off its line). So a time changes in the file only where it
 * moved by more than the tolerance, and every time written is within the tolerance of the arrival.
 * The warm-up (the exchanges before the first call, see {@link firstCallExchange}) is not judged on
 * time: its frames keep their counterparts' offsets.
 */
function placeTimes(
  previous: readonly Frame[],
  next: readonly Frame[],
  match: readonly (number | undefined)[],
  limits: Required<TimingTolerance>,
): number[] {
  const [oldOffsets, liveOffsets] = [exchangeOffsets(previous), exchangeOffsets(next)];
  const was = match.map((p) => (p === undefined ? undefined : (oldOffsets[p] as number)));
  const within = (offset: number, old: number): boolean =>
    Math.abs(offset - old) / 1000 <= allowedDrift(limits, old / 1000);
  // The warm-up (handshake, listings) is not judged on time: its frames keep their counterparts' offsets.
  const firstCall = firstCallExchange(next);
  const onTime = was.map(
    (old, n) =>
      old !== undefined && (isWarmUp((next[n] as Frame).exchange, firstCall) || within(liveOffsets[n] as number, old)),
  );
  // The next on-time frame of the same exchange after each frame (other than its first frame).
  const anchor: (number | undefined)[] = [];
  const later = new Map<number, number>();
  for (let n = next.length - 1; n >= 0; n--) {
    const exchange = (next[n] as Frame).exchange;
    anchor[n] = later.get(exchange);
    if (onTime[n] && liveOffsets[n] !== 0) later.set(exchange, n);
  }
  const starts = new Map<number, number>();
  const times: number[] = [];
  let last = 0;
  next.forEach((frame, n) => {
    const start = starts.get(frame.exchange);
    const old = was[n];
    let t: number;
    if (start === undefined) {
      const p = match[n];
      const counterpart = p === undefined ? undefined : (previous[p] as Frame).t;
      const gap = n === 0 ? frame.t : (times[n - 1] as number) + frame.t - (next[n - 1] as Frame).t;
      t = counterpart !== undefined && counterpart >= last ? counterpart : Math.max(last, gap);
      starts.set(frame.exchange, t);
    } else {
      const a = anchor[n];
      const upper = a === undefined ? Number.POSITIVE_INFINITY : start + (was[a] as number);
      const live = Math.max(last, Math.min(start + (liveOffsets[n] as number), upper));
      const kept = old === undefined ? undefined : start + old;
      // Only a frame that arrived within the tolerance keeps its counterpart's time: judged by its
      // arrival, not by where the clamp put it, so the file passes the timing compare against the
      // recording it came from. Clamped, a late or early frame stays within the tolerance of its
      // arrival (the frames it is clamped to are, and it arrived between them).
      t = kept !== undefined && onTime[n] && kept >= last && kept <= upper ? kept : live;
    }
    last = t;
    times.push(t);
  });
  return times;
}

const sameFrames = (a: Transcript, b: Transcript): boolean => {
  const x = contentKeys(a);
  const y = contentKeys(b);
  return x.length === y.length && x.every((key, i) => key === y[i]);
};

/**
 * The transcript to write over a golden when it is re-recorded (by verify's update, by record,
 * by the vitest matcher's update), made reviewable: a line changes only where its frame's content changed (after
 * normalisation) or its time moved by more than `tolerance`, so a changed text shows in a diff as
 * the lines that changed. Time is judged as the compare judges it: a frame's offset from the start
 * of its exchange, against its counterpart's in the golden (the frame with the same content, or the
 * one it replaced). A frame whose content did not change and whose time is within the tolerance
 * keeps the golden's line exactly, time and volatile values (dates, session ids) included; a changed
 * frame on time keeps its counterpart's time. A frame off time is written at the offset it arrived
 * at now, kept in order between its neighbours (see {@link placeTimes}), so the file written passes
 * the timing compare against the recording it came from. The warm-up before the first call (a
 * server's cold start) keeps the golden's times. Times never go back: when a frame is written later than
 * the golden's next exchange began, the exchanges after it move with it, keeping their offsets.
 * When old bytes would make the volatile values disagree within the file (a changed frame carries a
 * new session id), only the times are kept.
 *
 * @example
 * await writeGolden(path, keepRecordedTimes(await readGolden(path), live))
 */
export function keepRecordedTimes(previous: Transcript, next: Transcript, tolerance?: TimingTolerance): Transcript {
  const pairs = alignFrames(contentKeys(previous), contentKeys(next));
  const same = new Map(pairs.map(([p, n]) => [n, previous.frames[p] as Frame]));
  const match = counterparts(previous.frames, next.frames, pairs);
  const times = placeTimes(previous.frames, next.frames, match, resolveTolerance(tolerance));
  const place = (content: (n: number) => Frame): Transcript => ({
    header: next.header,
    frames: next.frames.map((_, n) => ({ ...content(n), t: times[n] as number })),
  });
  const whole = place((n) => same.get(n) ?? (next.frames[n] as Frame));
  return sameFrames(whole, next) ? whole : place((n) => next.frames[n] as Frame);
}
