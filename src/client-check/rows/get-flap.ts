import { firstWrong, planOf, wrongOutcome } from '../judge-kit.js';
import type { ClientRow, GoldenCall } from '../vocabulary.js';

const CALLS: readonly GoldenCall[] = [
  { name: 'progress', arguments: { steps: 20, step_ms: 1000 }, steps: 20, stepMs: 1000 },
  { name: 'chatty', arguments: {} },
];
const WINDOW_MS = 10_000;
const MOST = 3;

/** `get-flap`: every standalone GET is answered and closed at once, for 20 s; the client must not storm. */
export const GET_FLAP_ROWS: readonly ClientRow[] = [
  {
    id: 'get-flap',
    eras: ['legacy'],
    budgetMs: 30_000,
    server: () => ({ calls: CALLS, faults: { flapGets: true } }),
    plan: () => planOf(CALLS),
    judge(run) {
      const gets = run.audit.filter((r) => r.httpMethod === 'GET').map((r) => r.at);
      let most = 0;
      for (const [i, at] of gets.entries())
        most = Math.max(most, gets.slice(i).filter((t) => t < at + WINDOW_MS).length);
      return firstWrong(
        `${gets.length} GETs in ${Math.round(((run.exit?.at ?? Date.now()) - run.startedAt) / 1000)} s, at most ${most} in any 10 s; both calls printed their text`,
        [
          most > MOST
            ? `${most} GETs within 10 s (${gets.length} in all): a reconnect storm; at most ${MOST} expected`
            : undefined,
          ...CALLS.map((call, index) => wrongOutcome(run, index, call, false)),
        ],
      );
    },
  },
];
