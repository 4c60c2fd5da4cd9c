import { callsSeen, exitWords, idOf, methodOf, ms, paramsOf } from '../judge-kit.js';
import type { AuditedRequest, ClientRow, GoldenCall, Judgement, RowRun } from '../vocabulary.js';

const LONG: GoldenCall = { name: 'progress', arguments: { steps: 10, step_ms: 400 }, steps: 10, stepMs: 400 };
const ABORT_MS = 600;
/** How long after the abort the server watches for the cancel. */
const WINDOW_MS = 1000;
/**
 * How much sooner than the abort a cancel may arrive: the client starts its clock when it sends the
 * call, a little before the server sees it. A cancel earlier than this is a cancel of a call the
 * plan had not yet given up on.
 */
const EARLY_MS = 250;

/** Why the cancel at `at` came too soon after `call` (before the abort), or `undefined`. */
function tooEarly(run: RowRun, call: AuditedRequest, at: number | undefined, what: string): string | undefined {
  if (at === undefined || at >= call.at + ABORT_MS - EARLY_MS) return undefined;
  return `${what} at ${ms(run, at)}, ${Math.round(at - call.at)} ms after the call arrived: the plan aborts it after ${ABORT_MS} ms (due at ${ms(run, call.at + ABORT_MS)}), so the client cancelled a call it had not given up on`;
}

function judgeCancel(run: RowRun): Judgement {
  const call = callsSeen(run)[0];
  if (!call) return { verdict: 'fail', evidence: `the call never arrived (the client ${exitWords(run)})` };
  const due = call.at + ABORT_MS + WINDOW_MS;
  const cancels = run.audit.filter((r) => methodOf(r) === 'notifications/cancelled');
  const named = cancels.find((r) => JSON.stringify(paramsOf(r).requestId) === JSON.stringify(idOf(call)));
  if (run.era === 'legacy') {
    const early = tooEarly(run, call, named?.at, 'notifications/cancelled came');
    if (early) return { verdict: 'fail', evidence: early };
    if (named && named.at <= due)
      return {
        verdict: 'pass',
        evidence: `notifications/cancelled for request ${JSON.stringify(idOf(call))} at ${ms(run, named.at)} (abort due at ${ms(run, call.at + ABORT_MS)})`,
      };
    if (named)
      return {
        verdict: 'fail',
        evidence: `the cancel came at ${ms(run, named.at)}, more than ${WINDOW_MS} ms after the abort at ${ms(run, call.at + ABORT_MS)}`,
      };
    const other = cancels.map((r) => JSON.stringify(paramsOf(r).requestId)).join(', ');
    return {
      verdict: 'fail',
      evidence: `no notifications/cancelled naming request ${JSON.stringify(idOf(call))} within ${WINDOW_MS} ms of the abort${other ? ` (cancels named ${other})` : ''}; the stream was ${call.closedByClientAt ? `closed by the client at ${ms(run, call.closedByClientAt)}` : 'left open'}`,
    };
  }
  const closed = call.closedByClientAt;
  const early = tooEarly(run, call, closed, "the client closed the call's stream");
  if (early) return { verdict: 'fail', evidence: early };
  if (closed === undefined || closed > due)
    return {
      verdict: 'fail',
      evidence: `the client did not close the call's response stream within ${WINDOW_MS} ms of the abort at ${ms(run, call.at + ABORT_MS)} (closed ${ms(run, closed)}; server ended it ${ms(run, call.endedAt)})`,
    };
  const also =
    cancels.length > 0 ? `; it also POSTed notifications/cancelled at ${ms(run, cancels[0]?.at)} (the 2025 way)` : '';
  return {
    verdict: also ? 'warn' : 'pass',
    evidence: `the client closed the call's stream at ${ms(run, closed)} (abort due at ${ms(run, call.at + ABORT_MS)})${also}`,
  };
}

/** `cancel-abort`: the client cancels a slow call 600 ms after sending it. */
export const CANCEL_ROWS: readonly ClientRow[] = [
  {
    id: 'cancel-abort',
    eras: ['legacy', 'modern'],
    budgetMs: 15_000,
    afterExitMs: ABORT_MS + WINDOW_MS,
    server: () => ({ calls: [LONG] }),
    plan: () => ({
      calls: [{ name: LONG.name, arguments: LONG.arguments, progress: true, abortAfterMs: ABORT_MS }],
      concurrent: false,
    }),
    judge: judgeCancel,
  },
];
