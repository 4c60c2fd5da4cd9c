import {
  callsSeen,
  exitWords,
  idOf,
  methodOf,
  ms,
  outcomeOf,
  paramsOf,
  shortText,
  wrongOutcome,
} from '../judge-kit.js';
import type { ClientRow, GoldenCall, Judgement, RowRun } from '../vocabulary.js';

/**
 * The bound on a call that never ends (`progress-endless`, `timeout-cancels`): a client must have
 * given up and said so within 180 s of sending it. Three times the SDKs' 60 s default request
 * timeout, and well over twice the 75 s call `progress-keeps-alive` asks a client to wait for.
 */
export const GIVE_UP_MS = 180_000;
/** A client that gives up on a silent call after at least this long chose a timeout (warn); sooner, it fails. */
export const PATIENCE_MS = 30_000;
/** How long after the client's error line the server watches for its cancel (not scaled: a tolerance). */
const CANCEL_WINDOW_MS = 1000;
/** Time after a bound before the client is stopped. */
const SLACK_MS = 10_000;

/** `+12.3 s`: a long time in evidence. */
const seconds = (delta: number): string => `${(delta / 1000).toFixed(1)} s`;

/** What the client printed to end call 0, if anything: its error or abort, and when. */
function gaveUp(run: RowRun): { readonly at: number; readonly said: string } | undefined {
  const out = outcomeOf(run, 0);
  if (out.error) return { at: out.error.at, said: `error ${shortText(out.error.text, 100)}` };
  if (out.aborted !== undefined) return { at: out.aborted, said: 'aborted' };
  return undefined;
}

/** Whether the client cancelled call `call` within the window after `from` (2025: notification; 2026: closed stream). */
function cancelWords(
  run: RowRun,
  from: number,
): { readonly ok: boolean; readonly words: string; readonly also?: string } {
  const call = callsSeen(run)[0];
  const due = from + CANCEL_WINDOW_MS;
  const cancels = run.audit.filter((r) => methodOf(r) === 'notifications/cancelled');
  if (run.era === 'legacy') {
    const named = cancels.find((r) => JSON.stringify(paramsOf(r).requestId) === JSON.stringify(call && idOf(call)));
    if (named && named.at <= due) return { ok: true, words: `notifications/cancelled at ${ms(run, named.at)}` };
    return {
      ok: false,
      words: named
        ? `notifications/cancelled came at ${ms(run, named.at)}, more than ${CANCEL_WINDOW_MS} ms after`
        : `no notifications/cancelled naming request ${JSON.stringify(call && idOf(call))} within ${CANCEL_WINDOW_MS} ms (the stream was ${call?.closedByClientAt ? `closed at ${ms(run, call.closedByClientAt)}` : 'left open'})`,
    };
  }
  const closed = call?.closedByClientAt;
  if (closed !== undefined && closed <= due) {
    const also = cancels[0]
      ? `; it also POSTed notifications/cancelled at ${ms(run, cancels[0].at)} (the 2025 way)`
      : undefined;
    return { ok: true, words: `the stream closed at ${ms(run, closed)}`, ...(also && { also }) };
  }
  return {
    ok: false,
    words: `the call's stream was not closed within ${CANCEL_WINDOW_MS} ms (closed ${ms(run, closed)})`,
  };
}

/** The long rows' calls at one scale, and `s`, which scales a duration. */
interface LongCalls {
  readonly s: (ms: number) => number;
  readonly keepsAlive: GoldenCall;
  readonly endless: GoldenCall;
  readonly silent: GoldenCall;
  readonly outlives: GoldenCall;
}

function longCalls(scale: number): LongCalls {
  const s = (value: number): number => value * scale;
  const endlessSteps = Math.ceil((GIVE_UP_MS + 60_000) / 10_000);
  return {
    s,
    keepsAlive: {
      name: 'progress',
      arguments: { steps: 7, step_ms: 10_000 },
      steps: 7,
      stepMs: s(10_000),
      leadMs: s(5_000),
    },
    endless: {
      name: 'progress',
      arguments: { steps: endlessSteps, step_ms: 10_000 },
      steps: endlessSteps,
      stepMs: s(10_000),
    },
    // 70 s of nothing, then one progress and the result: a stream (SSE in 2026-07-28 too) that stays quiet.
    silent: { name: 'progress', arguments: { steps: 1, step_ms: 70_000 }, steps: 1, stepMs: 20, leadMs: s(70_000) },
    outlives: { name: 'progress', arguments: { steps: 24, step_ms: 10_000 }, leadMs: s(GIVE_UP_MS + 60_000) },
  };
}

/** The plan: the one call, with or without progress, never aborted by the plan. */
const planFor = (call: GoldenCall, progress: boolean) => ({
  calls: [{ name: call.name, arguments: call.arguments, progress, abortAfterMs: null }],
  concurrent: false,
});

/** When the server saw the call. */
const sentAt = (run: RowRun): number | undefined => callsSeen(run)[0]?.at;

function judgeKeepsAlive({ s, keepsAlive }: LongCalls, run: RowRun): Judgement {
  const wrong = wrongOutcome(run, 0, keepsAlive, true);
  const at = sentAt(run);
  const end = gaveUp(run);
  if (!wrong)
    return {
      verdict: 'pass',
      evidence: `a ${seconds(s(75_000))} call with a progress every ${seconds(s(10_000))}: 7 progress and the result at ${ms(run, outcomeOf(run, 0).result?.at)}`,
    };
  const when =
    end && at !== undefined
      ? ` (${seconds(end.at - at)} after the call, ${outcomeOf(run, 0).progress.length} progress seen)`
      : '';
  return { verdict: 'fail', evidence: `${wrong}${when}: progress shows the call alive` };
}

function judgeEndless({ s }: LongCalls, run: RowRun): Judgement {
  const at = sentAt(run);
  const end = gaveUp(run);
  const seen = outcomeOf(run, 0).progress.length;
  if (at === undefined) return { verdict: 'fail', evidence: `the call never arrived (the client ${exitWords(run)})` };
  if (end && end.at - at <= s(GIVE_UP_MS)) {
    const cancel = cancelWords(run, end.at);
    return {
      verdict: 'pass',
      evidence: `progress every ${seconds(s(10_000))}, never a result: the client gave up ${seconds(end.at - at)} after the call (${end.said}, ${seen} progress printed); ${cancel.words}`,
    };
  }
  return {
    verdict: 'fail',
    evidence: end
      ? `the client gave up ${seconds(end.at - at)} after the call, over the ${seconds(s(GIVE_UP_MS))} bound (${end.said})`
      : `no error or abort within ${seconds(s(GIVE_UP_MS))} of a call that only sends progress (${seen} printed): a hang (the client ${exitWords(run)})`,
  };
}

function judgeSilent({ s, silent }: LongCalls, run: RowRun): Judgement {
  const at = sentAt(run);
  const end = gaveUp(run);
  const wrong = wrongOutcome(run, 0, silent, true);
  if (!wrong)
    return {
      verdict: 'pass',
      evidence: `${seconds(s(70_000))} of silence, then its progress and result printed at ${ms(run, outcomeOf(run, 0).result?.at)}`,
    };
  if (at === undefined) return { verdict: 'fail', evidence: `the call never arrived (the client ${exitWords(run)})` };
  if (end && end.at - at >= s(PATIENCE_MS))
    return {
      verdict: 'warn',
      evidence: `the client gave up ${seconds(end.at - at)} into ${seconds(s(70_000))} of silence (${end.said}): a timeout of its own, said in time; the result would have come`,
    };
  return {
    verdict: 'fail',
    evidence: end
      ? `${wrong} after ${seconds(end.at - at)} of silence, under the ${seconds(s(PATIENCE_MS))} a slow tool may take`
      : wrong,
  };
}

function judgeTimeoutCancels({ s }: LongCalls, run: RowRun): Judgement {
  const at = sentAt(run);
  const end = gaveUp(run);
  if (at === undefined) return { verdict: 'fail', evidence: `the call never arrived (the client ${exitWords(run)})` };
  if (!end || end.at - at > s(GIVE_UP_MS))
    return {
      verdict: 'fail',
      evidence: end
        ? `the client timed out ${seconds(end.at - at)} after the call, over the ${seconds(s(GIVE_UP_MS))} bound`
        : `no error within ${seconds(s(GIVE_UP_MS))} of a call that sends nothing: the client never timed out (it ${exitWords(run)})`,
    };
  const cancel = cancelWords(run, end.at);
  const evidence = `the client timed out ${seconds(end.at - at)} after the call (${end.said} at ${ms(run, end.at)}); ${cancel.words}${cancel.also ?? ''}`;
  return { verdict: cancel.ok ? (cancel.also ? 'warn' : 'pass') : 'fail', evidence };
}

/**
 * The `--long` rows, their durations multiplied by `scale` (1 for `check --long`; the tests run them
 * shorter, with a careful client whose timeouts are scaled alike). Tolerances are not scaled.
 */
export function longRows(scale = 1): readonly ClientRow[] {
  const calls = longCalls(scale);
  const { s, keepsAlive, endless, silent, outlives } = calls;
  const row = (
    id: string,
    budgetMs: number,
    rest: Pick<ClientRow, 'server' | 'plan' | 'judge' | 'afterExitMs'>,
  ): ClientRow => ({
    id,
    eras: ['legacy', 'modern'],
    long: true,
    budgetMs,
    ...rest,
  });
  return [
    row('progress-keeps-alive', s(75_000) + SLACK_MS + 20_000, {
      server: () => ({ calls: [keepsAlive] }),
      plan: () => planFor(keepsAlive, true),
      judge: (run) => judgeKeepsAlive(calls, run),
    }),
    row('progress-endless', s(GIVE_UP_MS) + SLACK_MS, {
      afterExitMs: CANCEL_WINDOW_MS,
      server: () => ({ calls: [endless] }),
      plan: () => planFor(endless, true),
      judge: (run) => judgeEndless(calls, run),
    }),
    row('silent-then-result', s(70_000) + SLACK_MS + 20_000, {
      server: () => ({ calls: [silent] }),
      plan: () => planFor(silent, true),
      judge: (run) => judgeSilent(calls, run),
    }),
    row('silent-then-result-comments', s(70_000) + SLACK_MS + 20_000, {
      server: () => ({ calls: [silent], faults: { keepAliveMs: s(15_000) } }),
      plan: () => planFor(silent, true),
      judge: (run) => judgeSilent(calls, run),
    }),
    row('timeout-cancels', s(GIVE_UP_MS) + SLACK_MS, {
      afterExitMs: CANCEL_WINDOW_MS,
      server: () => ({ calls: [outlives] }),
      plan: () => planFor(outlives, false),
      judge: (run) => judgeTimeoutCancels(calls, run),
    }),
  ];
}
