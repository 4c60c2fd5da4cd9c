import { expectedText } from '../goldens.js';
import { ms, outcomeOf, planOf, shortText } from '../judge-kit.js';
import type { ClientRow, GoldenCall, Judgement, RowRun } from '../vocabulary.js';

const KIB = 1024;
/**
 * 2 MiB and 8 MiB of text: `long_output` blocks of 64 KiB (more blocks than the live tool allows: the
 * golden is made), each after one progress so that the result is one SSE event in both eras.
 */
const LARGE_CALLS: readonly GoldenCall[] = [
  { name: 'long_output', arguments: { blocks: 32, chars: 64 * KIB }, steps: 1 },
  { name: 'long_output', arguments: { blocks: 128, chars: 64 * KIB }, steps: 1 },
];
/** An error line this soon after the call is a clear refusal (warn), not a hang. */
const CLEAR_ERROR_MS = 10_000;

function judgeCall(run: RowRun, index: number): Judgement {
  const call = LARGE_CALLS[index] as GoldenCall;
  const mib = ((call.arguments.blocks ?? 0) * (call.arguments.chars ?? 0)) / KIB / KIB;
  const out = outcomeOf(run, index);
  const sent = run.audit.filter((r) => r.call !== undefined)[index]?.at;
  if (out.result) {
    const expected = expectedText(call);
    return out.result.text === expected
      ? { verdict: 'pass', evidence: `${mib} MiB byte-identical at ${ms(run, out.result.at)}` }
      : {
          verdict: 'fail',
          evidence: `${mib} MiB: a different text (${out.result.text.length} chars, expected ${expected.length}): ${shortText(out.result.text)}`,
        };
  }
  if (out.error && sent === undefined)
    return {
      verdict: 'fail',
      evidence: `${mib} MiB: error before the call reached the server: ${shortText(out.error.text, 120)}`,
    };
  if (out.error) {
    const within = sent !== undefined && out.error.at - sent <= CLEAR_ERROR_MS;
    return {
      verdict: within ? 'warn' : 'fail',
      evidence: `${mib} MiB: error at ${ms(run, out.error.at)}${within ? ' (a clear refusal)' : ` (more than ${CLEAR_ERROR_MS / 1000} s after the call)`}: ${shortText(out.error.text, 120)}`,
    };
  }
  return {
    verdict: 'fail',
    evidence: `${mib} MiB: no result and no error (the call was sent at ${ms(run, sent)}): a hang`,
  };
}

const RANK = { fail: 3, warn: 2, inconclusive: 1, 'n/a': 0, pass: 0 } as const;

/** `result-large`: 2 and 8 MiB results written in 1 KB writes. */
export const LARGE_ROWS: readonly ClientRow[] = [
  {
    id: 'result-large',
    eras: ['legacy', 'modern'],
    budgetMs: 60_000,
    server: () => ({ calls: LARGE_CALLS, chunking: { writeBytes: KIB } }),
    plan: () => planOf(LARGE_CALLS),
    judge(run) {
      const parts = LARGE_CALLS.map((_, index) => judgeCall(run, index));
      const worst = parts.reduce((a, b) => (RANK[b.verdict] > RANK[a.verdict] ? b : a));
      return { verdict: worst.verdict, evidence: `in 1 KB writes: ${parts.map((p) => p.evidence).join('; ')}` };
    },
  },
];
