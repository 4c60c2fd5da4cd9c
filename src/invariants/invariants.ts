import { describeBlocks } from '../transcript/compare.js';
import { counted } from '../transcript/counted.js';
import type { Transcript } from '../transcript/frame.js';
import { progressOf as progressParams, resultContent, textOf } from '../transcript/json-rpc.js';
import { type Arrival, type Call, readToolCall } from '../transcript/read-calls.js';
import { allowedDrift, resolveTolerance, type TimingTolerance } from '../transcript/timing-tolerance.js';

/** The verdict on one property, with its evidence in numbers. */
export interface InvariantResult {
  /** Property name, e.g. `progress tokens`. */
  readonly property: string;
  readonly pass: boolean;
  /** Why, in one line with numbers: what passed, or the first thing that broke. */
  readonly evidence: string;
  /** The figures behind the evidence, by name. */
  readonly numbers: Readonly<Record<string, number | string | boolean>>;
}

const typeOf = (value: unknown): string => (value === null ? 'null' : typeof value);
const show = (value: unknown): string => `${JSON.stringify(value)} (${typeOf(value)})`;
const tokenOf = (a: Arrival): unknown => progressParams(a.message)?.progressToken;
const progressOf = (a: Arrival): unknown => progressParams(a.message)?.progress;

/** Text blocks of the call's result (`[]` when the result has none or the call failed). */
const resultTexts = (call: Call): string[] =>
  (resultContent(call.response?.message) ?? []).map((block) => textOf(block) ?? JSON.stringify(block));

/** Any character outside ASCII (a UTF-16 unit above 0x7f: surrogate halves count). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the range is all of ASCII, control characters included.
const NON_ASCII = /[^\x00-\x7f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the range is all of ASCII, control characters included.
const NON_ASCII_RUNS = /[^\x00-\x7f]+/g;

/** The ASCII characters of `text`, in order: one native test, and a copy only when something must go. */
const ascii = (text: string): string => (NON_ASCII.test(text) ? text.replace(NON_ASCII_RUNS, '') : text);

function result(
  property: string,
  pass: boolean,
  evidence: string,
  numbers: InvariantResult['numbers'],
): InvariantResult {
  return { property, pass, evidence, numbers };
}

/**
 * Progress tokens echoed verbatim (value and JSON type), no progress without a token, progress
 * increasing, none after the result or the cancellation, and (with a reference) none missing.
 */
export function preservesProgressTokens(received: Transcript, reference?: Transcript): InvariantResult {
  const name = 'progress tokens';
  const view = readToolCall(received);
  const count = view.progress.length;
  const numbers = { notifications: count, tokenSent: view.hasToken ? JSON.stringify(view.token) : 'none' };
  if (!view.hasToken) {
    return count === 0
      ? result(name, true, 'no token sent and no progress received', numbers)
      : result(
          name,
          false,
          `received ${count} progress notifications, but the request carried no progress token`,
          numbers,
        );
  }
  const wrong = view.progress.filter((p) => tokenOf(p) !== view.token);
  if (wrong.length > 0) {
    const first = tokenOf(wrong[0] as Arrival);
    return result(
      name,
      false,
      `${wrong.length} of ${count} progress notifications carried token ${show(first)}; the request sent ${show(view.token)}`,
      {
        ...numbers,
        wrongTokens: wrong.length,
      },
    );
  }
  for (let i = 1; i < count; i++) {
    const before = Number(progressOf(view.progress[i - 1] as Arrival));
    const now = Number(progressOf(view.progress[i] as Arrival));
    if (!(now > before))
      return result(
        name,
        false,
        `progress went ${before} → ${now} at notification ${i + 1} of ${count}; it must increase`,
        numbers,
      );
  }
  // By order, not time: a notification written right after the result often shares its read.
  const response = view.response;
  const late = response === undefined ? [] : view.progress.filter((p) => p.order > response.order);
  if (late.length > 0)
    return result(name, false, `${late.length} progress notifications arrived after the result`, {
      ...numbers,
      afterResult: late.length,
    });
  const cancelAt = view.cancelAtMs;
  const afterCancel = cancelAt === undefined ? [] : view.progress.filter((p) => p.atMs > cancelAt + 1);
  if (afterCancel.length > 0) {
    return result(
      name,
      false,
      `${afterCancel.length} progress notifications arrived after the cancellation (first ${((afterCancel[0]?.atMs ?? 0) - (cancelAt ?? 0)).toFixed(0)} ms after it)`,
      {
        ...numbers,
        afterCancel: afterCancel.length,
      },
    );
  }
  if (reference && cancelAt === undefined) {
    const expected = readToolCall(reference).progress.length;
    if (count !== expected) {
      const missing = count < expected ? ` (the last ${expected - count} missing)` : '';
      return result(name, false, `received ${count} of ${expected} progress notifications${missing}`, {
        ...numbers,
        expected,
      });
    }
  }
  return result(
    name,
    true,
    `${count} progress notifications, all with token ${show(view.token)}, increasing, none after the result`,
    numbers,
  );
}

/** Result blocks: same count, same order, byte-identical text, nothing truncated. */
export function preservesBlocks(received: Transcript, reference: Transcript): InvariantResult {
  const name = 'blocks';
  const got = resultTexts(readToolCall(received));
  const want = resultTexts(readToolCall(reference));
  const chars = (texts: string[]): number => texts.reduce((n, t) => n + t.length, 0);
  const numbers = { blocks: got.length, expectedBlocks: want.length, chars: chars(got), expectedChars: chars(want) };
  // How non-ASCII text was encoded is the unicode property's verdict: a block whose reference holds
  // non-ASCII text is compared on its ASCII. A block that was ASCII-only is compared whole, so
  // characters injected into it (U+FFFD, a BOM, mojibake) are a difference here too.
  // Identical blocks agree on everything, so the common case needs no stripping at all.
  const identical = got.length === want.length && got.every((text, i) => text === want[i]);
  const encoded = new Set(want.filter((text) => NON_ASCII.test(text)).map(ascii));
  const problem = identical
    ? undefined
    : describeBlocks(
        want.map((text) => ({ text: ascii(text) })),
        got.map((text, i) => ({
          text: NON_ASCII.test(want[i] ?? '') || encoded.has(ascii(text)) ? ascii(text) : text,
        })),
      );
  if (problem) return result(name, false, problem, numbers);
  return result(
    name,
    true,
    `${counted(got.length, 'block')}, ${counted(chars(got), 'character')}, in order and identical`,
    numbers,
  );
}

/** Text with non-ASCII characters arrives byte-identical (no latin-1 or replacement-character mangling). */
export function preservesUnicode(received: Transcript, reference: Transcript): InvariantResult {
  const name = 'unicode';
  const got = resultTexts(readToolCall(received));
  const want = resultTexts(readToolCall(reference));
  const nonAscii = want.filter((text) => NON_ASCII.test(text));
  const arrived = new Set(got);
  const sent = new Set(want);
  for (const [i, text] of want.entries()) {
    if (arrived.has(text)) continue;
    // The block that should carry this text: same position, or the one that still matches its ASCII part.
    const actual = got.find((g) => ascii(g) === ascii(text)) ?? got[i];
    // An ASCII-only block is judged here only when non-ASCII text arrived in it; other changes are the blocks property's.
    if (!NON_ASCII.test(text) && (actual === undefined || !NON_ASCII.test(actual) || sent.has(actual))) continue;
    const latin1 = Buffer.from(text, 'utf8').toString('latin1');
    const why =
      actual === latin1
        ? ' (UTF-8 bytes decoded as latin-1)'
        : actual?.includes('\ufffd')
          ? ' (replacement characters: bytes lost in decoding)'
          : '';
    let at = 0;
    while (at < text.length && text[at] === actual?.[at]) at++;
    const from = Math.max(0, at - 30);
    const sample = (s: string | undefined): string => {
      const whole = s ?? '';
      return JSON.stringify(whole.length <= 80 ? whole : `…${whole.slice(from, from + 60)}…`);
    };
    return result(name, false, `block ${i}: ${sample(text)} arrived as ${sample(actual)}${why}`, {
      nonAsciiBlocks: nonAscii.length,
    });
  }
  return result(name, true, `${counted(nonAscii.length, 'block')} with non-ASCII text arrived byte-identical`, {
    nonAsciiBlocks: nonAscii.length,
  });
}

/**
 * Progress streams live: gaps between notifications match the reference's within tolerance, they
 * do not bunch up at the result, and they do not all arrive in one read.
 */
export function streamsProgressively(
  received: Transcript,
  reference: Transcript,
  timing: TimingTolerance = {},
): InvariantResult {
  const name = 'streams progressively';
  const tolerance = resolveTolerance(timing);
  const { relGap, minGapMs } = tolerance;
  const got = readToolCall(received);
  const want = readToolCall(reference);
  // Gaps between consecutive progress values that arrived before the result, matched by value, so a
  // dropped or late notification is judged by the tokens property, not here.
  const gapsByValue = (v: Call): Map<string, number> => {
    const before = v.progress.filter((p) => v.response === undefined || p.order < v.response.order);
    const out = new Map<string, number>();
    before.forEach((p, i) => {
      const next = before[i + 1];
      if (next) out.set(`${String(progressOf(p))}>${String(progressOf(next))}`, next.atMs - p.atMs);
    });
    return out;
  };
  const gotByValue = gapsByValue(got);
  const wantByValue = gapsByValue(want);
  const pairs = [...wantByValue].filter(([key]) => gotByValue.has(key));
  const wantGaps = pairs.map(([, gap]) => gap);
  const gotGaps = pairs.map(([key]) => gotByValue.get(key) as number);
  const numbers = {
    notifications: got.progress.length,
    reads: got.reads,
    maxMessagesPerRead: got.maxMessagesPerRead,
    firstProgressMs: Math.round(got.progress[0]?.atMs ?? -1),
    resultMs: Math.round(got.response?.atMs ?? -1),
  };
  if (want.progress.length === 0)
    return result(name, true, 'the reference streams no progress: nothing to judge', numbers);
  if (got.progress.length === 0)
    return result(
      name,
      false,
      `no progress notifications arrived; the reference streams ${want.progress.length}`,
      numbers,
    );
  const judged = wantGaps
    .map((gap, i) => ({ gap, i }))
    .filter(({ gap, i }) => gap >= minGapMs && gotGaps[i] !== undefined);
  const off = judged.filter(({ gap, i }) => Math.abs((gotGaps[i] as number) - gap) > allowedDrift(tolerance, gap));
  const resultAt = got.response?.atMs;
  const bunched = resultAt === undefined ? 0 : got.progress.filter((p) => resultAt - p.atMs <= 5).length;
  const first = off[0];
  if (first) {
    const typical = [...judged.map((j) => j.gap)].sort((x, y) => x - y)[Math.floor(judged.length / 2)] ?? 0;
    const bunchText =
      bunched > 0 ? `${bunched} of ${got.progress.length} notifications arrived within 5 ms of the result; ` : '';
    return result(
      name,
      false,
      `${bunchText}${off.length} of ${judged.length} gaps outside tolerance (gap ${first.i + 1} was ${(gotGaps[first.i] as number).toFixed(0)} ms); expected gaps of ${typical.toFixed(0)} ms ± ${allowedDrift(tolerance, typical).toFixed(0)} ms`,
      { ...numbers, gapsOutside: off.length, bunchedAtResult: bunched },
    );
  }
  if (
    got.progress.length > 1 &&
    got.maxMessagesPerRead >= got.progress.length + (got.response ? 1 : 0) &&
    judged.length > 0
  ) {
    return result(
      name,
      false,
      `all ${got.progress.length} notifications and the result arrived in one read: the stream is buffered`,
      numbers,
    );
  }
  return result(
    name,
    true,
    `${judged.length} gaps within ${Math.round(relGap * 100)}% of the reference; first progress at ${numbers.firstProgressMs} ms, result at ${numbers.resultMs} ms; at most ${got.maxMessagesPerRead} messages per read`,
    numbers,
  );
}

/** Every invariant at once: tokens, blocks, unicode, streaming. */
export function forwardsFaithfully(
  received: Transcript,
  reference: Transcript,
  tolerance?: TimingTolerance,
): InvariantResult[] {
  return [
    preservesProgressTokens(received, reference),
    preservesBlocks(received, reference),
    preservesUnicode(received, reference),
    streamsProgressively(received, reference, tolerance),
  ];
}
