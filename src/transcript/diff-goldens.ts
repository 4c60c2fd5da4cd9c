import { type Comparison, comparePrepared } from './compare.js';
import { comparisonLines } from './comparison-lines.js';
import type { Transcript } from './frame.js';
import { goldenNotes } from './golden-notes.js';
import { prepareTranscript } from './prepared-transcript.js';
import type { TimingTolerance } from './timing-tolerance.js';
import { mergeVolatile, parseVolatile, type VolatileOptions } from './volatile.js';

/** Options of {@link diffGoldens}. */
export interface DiffGoldensOptions {
  /**
   * `ignore`: no timing check; `order`: order within each stream only (as `toMatchGolden`); or the
   * tolerance each frame's offset from its request is judged with (the warm-up before the first call
   * is not judged; `{}` is the default tolerance: max(20 ms, 50 %) of the first golden's offset).
   * @default 'order'
   */
  readonly timing?: 'ignore' | 'order' | TimingTolerance;
  /** Values left out of the comparison, with those both goldens' headers record (`notes.volatile`). @default {} */
  readonly volatile?: VolatileOptions;
  /** Compare normalised raw bytes instead of parsed JSON-RPC. @default false */
  readonly bytes?: boolean;
}

/** What {@link diffGoldens} found. */
export interface GoldenDiff {
  /** True when the two goldens match under the comparison asked for. */
  readonly equal: boolean;
  readonly comparison: Comparison;
  /** The ignores and masks it compared with. */
  readonly volatile: VolatileOptions;
  /**
   * The lines that say how they differ (none when equal): the comparison's lines, as
   * `toMatchGolden` prints them, then the first differing stream's canonical lines that differ,
   * `- ` for the first golden's and `+ ` for the second's.
   */
  readonly lines: readonly string[];
}

/** The lines of two canonical texts that differ, position by position: `- expected`, `+ actual`. */
function textLines(expected: string, actual: string): string[] {
  const [e, a] = [expected.split('\n'), actual.split('\n')];
  const out: string[] = [];
  for (let i = 0; i < Math.max(e.length, a.length); i++) {
    if (e[i] === a[i]) continue;
    if (e[i] !== undefined) out.push(`- ${e[i]}`);
    if (a[i] !== undefined) out.push(`+ ${a[i]}`);
  }
  return out;
}

/**
 * Compares two goldens as `toMatchGolden` compares a stream with its golden, not byte by byte: after
 * normalisation (session ids, request ids, tokens, dates, ports), with the values the options and
 * both headers mark volatile left out, frames in order (and, when asked, each frame's time judged
 * within a timing tolerance).
 * `a` is read as the expected side (the golden), `b` as the actual one.
 *
 * @example
 * const diff = diffGoldens(await readGolden('old/search.jsonl'), await readGolden('new/search.jsonl'))
 * if (!diff.equal) console.log([diff.comparison.headline, ...diff.lines].join('\n'))
 */
export function diffGoldens(a: Transcript, b: Transcript, options: DiffGoldensOptions = {}): GoldenDiff {
  const recorded = (t: Transcript, which: string): VolatileOptions =>
    parseVolatile(goldenNotes(t.header).volatile, `in the header of the ${which} golden`);
  const volatile = mergeVolatile(options.volatile, recorded(a, 'first'), recorded(b, 'second'));
  const used = (volatile.ignore?.length ?? 0) + (volatile.mask?.length ?? 0) > 0;
  const comparison = comparePrepared(prepareTranscript(b), prepareTranscript(a), {
    timing: options.timing ?? 'order',
    ...(options.bytes !== undefined && { bytes: options.bytes }),
    ...(used && { volatile }),
  });
  const lines = comparison.pass
    ? []
    : [
        ...comparisonLines(comparison, a.header, b.header),
        ...(comparison.expectedText !== '' || comparison.actualText !== ''
          ? ['Canonical text (- first, + second):', ...textLines(comparison.expectedText, comparison.actualText)]
          : []),
      ];
  return { equal: comparison.pass, comparison, volatile, lines };
}
