import {
  callsSeen,
  exitWords,
  firstWrong,
  methodOf,
  ms,
  outcomeOf,
  planOf,
  shortText,
  wrongOutcome,
} from '../judge-kit.js';
import type { ClientRow, GoldenCall, RowRun } from '../vocabulary.js';

const CHATTY: GoldenCall = { name: 'chatty', arguments: {} };
const SLOW: GoldenCall = { name: 'progress', arguments: { steps: 3, step_ms: 300 }, steps: 3, stepMs: 300 };
/** How soon a failure must be reported. */
const REPORT_MS = 5000;

/** Whether call `index` printed an error within 5 s of `from`; `undefined` when it did, else why not. */
function reportedWithin(run: RowRun, index: number, from: number | undefined, what: string): string | undefined {
  const out = outcomeOf(run, index);
  if (from === undefined) return `the server never ${what}`;
  if (out.error && out.error.at - from <= REPORT_MS) return undefined;
  if (out.error)
    return `call ${index}'s error came ${Math.round(out.error.at - from)} ms after the server ${what} (at ${ms(run, from)}); expected within ${REPORT_MS} ms`;
  if (out.result) return `call ${index} printed a result after the server ${what}: ${shortText(out.result.text)}`;
  return `call ${index} printed nothing within ${REPORT_MS} ms after the server ${what} at ${ms(run, from)}: a hang (the client ${exitWords(run)})`;
}

/** Rows where the server fails a call: an HTTP 5xx, a stream that ends with no response, a session gone. */
export const FAILURE_ROWS: readonly ClientRow[] = [
  {
    id: 'http-5xx',
    eras: ['legacy', 'modern'],
    budgetMs: 20_000,
    server: () => ({ calls: [CHATTY, CHATTY], faults: { failCall: { nth: 1, status: 503 } } }),
    plan: () => planOf([CHATTY, CHATTY]),
    judge(run) {
      const failed = callsSeen(run)[0];
      return firstWrong(
        `a 503 at ${ms(run, failed?.at)} reported at ${ms(run, outcomeOf(run, 0).error?.at)}; the next call printed its text`,
        [
          reportedWithin(run, 0, failed?.endedAt ?? failed?.at, 'answered HTTP 503'),
          wrongOutcome(run, 1, CHATTY, false),
        ],
      );
    },
  },
  {
    id: 'stream-ends-no-response',
    eras: ['legacy'],
    budgetMs: 12_000,
    server: () => ({ calls: [SLOW], faults: { cutCall: { nth: 1, after: 'progress', stripIds: true } } }),
    plan: () => planOf([SLOW]),
    judge(run) {
      const cut = callsSeen(run)[0];
      return firstWrong(
        `the stream ended without a response at ${ms(run, cut?.endedAt)}; error at ${ms(run, outcomeOf(run, 0).error?.at)}`,
        [reportedWithin(run, 0, cut?.endedAt, 'ended the stream without a response or event id')],
      );
    },
  },
  {
    id: 'session-404',
    eras: ['legacy'],
    budgetMs: 20_000,
    server: () => ({ calls: [CHATTY, CHATTY], faults: { sessionGoneAfter: 1 } }),
    plan: () => planOf([CHATTY, CHATTY]),
    judge(run) {
      const gone = run.audit.findIndex((r) => r.fault?.startsWith('session gone') === true);
      const dead = run.audit[gone];
      const reinit = run.audit
        .slice(gone + 1)
        .find((r) => methodOf(r) === 'initialize' && r.headers['mcp-session-id'] === undefined);
      return firstWrong(
        `404 for the old session at ${ms(run, dead?.at)}; a new initialize without it at ${ms(run, reinit?.at)}; the call then printed its text`,
        [
          dead
            ? undefined
            : 'the server never answered 404 (the client sent nothing with the old session after the first call)',
          reinit
            ? undefined
            : `after the 404 at ${ms(run, dead?.at)} no initialize without the old Mcp-Session-Id arrived (the client ${exitWords(run)})`,
          wrongOutcome(run, 1, CHATTY, false),
        ],
      );
    },
  },
];
