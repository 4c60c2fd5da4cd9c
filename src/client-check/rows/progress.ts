import { callsSeen, firstWrong, ms, outcomeOf, paramsOf, planOf, wrongOutcome } from '../judge-kit.js';
import type { ClientRow, GoldenCall } from '../vocabulary.js';

const ONE: readonly GoldenCall[] = [{ name: 'progress', arguments: { steps: 3, step_ms: 50 }, steps: 3, stepMs: 50 }];
const LATE: readonly GoldenCall[] = [
  { name: 'progress', arguments: { steps: 3, step_ms: 50 }, steps: 3, stepMs: 50, lateProgress: true },
  { name: 'chatty', arguments: {} },
];
const TWO: readonly GoldenCall[] = [
  { name: 'progress', arguments: { steps: 3, step_ms: 100 }, steps: 3, stepMs: 100 },
  { name: 'progress', arguments: { steps: 5, step_ms: 60 }, steps: 5, stepMs: 60 },
];

/** The progress rows. */
export const PROGRESS_ROWS: readonly ClientRow[] = [
  {
    id: 'progress-coalesced-final',
    eras: ['legacy', 'modern'],
    budgetMs: 20_000,
    server: () => ({ calls: ONE, faults: { coalesceFinal: true } }),
    plan: () => planOf(ONE),
    judge: (run) =>
      firstWrong(
        `the last progress and the result in one write: progress 1, 2, 3 and the result printed (at ${ms(run, outcomeOf(run, 0).result?.at)})`,
        [wrongOutcome(run, 0, ONE[0] as GoldenCall, true)],
      ),
  },
  {
    id: 'progress-late-or-unknown',
    eras: ['legacy', 'modern'],
    budgetMs: 20_000,
    server: () => ({ calls: LATE }),
    plan: () => planOf(LATE),
    judge(run) {
      const inits = run.audit.filter((r) => (r.message as { method?: unknown })?.method === 'initialize').length;
      const seen = callsSeen(run).length;
      return firstWrong(
        `a progress after the result and one for a token never issued: the next call arrived (${seen} calls) and printed its text at ${ms(run, outcomeOf(run, 1).result?.at)}, with no new initialize`,
        [
          // Judged as the issue asks (the next call works, no teardown): call 0's text, not its progress,
          // since a late progress coalesced with the result may be reported before the client drops the token.
          wrongOutcome(run, 0, LATE[0] as GoldenCall, false),
          wrongOutcome(run, 1, LATE[1] as GoldenCall, false),
          inits > 1
            ? `the client initialized ${inits} times: it tore the session down over a stray progress`
            : undefined,
        ],
      );
    },
  },
  {
    id: 'progress-concurrent',
    eras: ['legacy', 'modern'],
    budgetMs: 20_000,
    server: () => ({ calls: TWO }),
    plan: () => planOf(TWO, true),
    judge(run) {
      const tokens = callsSeen(run).map((r) =>
        JSON.stringify((paramsOf(r)._meta as { progressToken?: unknown })?.progressToken),
      );
      const distinct = new Set(tokens).size === tokens.length && tokens.length === 2;
      return firstWrong(
        `two calls at once with tokens ${tokens.join(' and ')}: each printed its own progress and text`,
        [
          distinct ? undefined : `the server saw progress tokens ${tokens.join(', ')}: expected two distinct tokens`,
          ...TWO.map((call, index) => wrongOutcome(run, index, call, true)),
        ],
      );
    },
  },
];
