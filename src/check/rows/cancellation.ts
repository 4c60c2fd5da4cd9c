/**
 * The cancellation family: a cancel reaches the upstream under the id it knows, and nothing the
 * upstream did not send reaches the client after it (2025: notifications/cancelled; 2026-07-28: the
 * client closes the call's stream).
 */
import type { Recording } from '../../record/record-call.js';
import type { AuditEntry } from '../../server/audit-log.js';
import { frameMessage } from '../../transcript/frame-content.js';
import { errorOf, isErrorResult, type JsonRpcMessage, paramsOf, resultTexts } from '../../transcript/json-rpc.js';
import { auditRow, describeAuditRow, rowsTagged, upstreamSaid } from '../audit.js';
import type { CallSeen, CheckSession } from '../check-session.js';
import {
  callFailure,
  clientEraOf,
  erasLabel,
  frameWith,
  LEG,
  lane,
  newTag,
  notExercised,
  progressValues,
  quote,
  recordThrough,
  result,
  row,
  seenNumbers,
  upstreamEraOf,
  withSession,
} from '../kit.js';
import type { BatteryContext, BatteryProperty, PropertyResult, TimelineCall } from '../vocabulary.js';

/** What ended a call, as evidence quotes it: a result, or the error (or error result) it was refused with. */
function answerOf(message: JsonRpcMessage): string {
  const error = errorOf(message);
  if (error) return `error ${error.code} ${JSON.stringify(String(error.message).slice(0, 160))}`;
  if (isErrorResult(message)) return `an error result ${JSON.stringify((resultTexts(message)[0] ?? '').slice(0, 160))}`;
  return 'a result';
}
/**
 * The progress values that reached the client after its cancel although the upstream never sent
 * them, or that the client had received already: what a gateway invented or repeated. Anything
 * else that arrives late was in flight, however late a loaded machine delivers it.
 */
export function unsentAfterCancel(seen: CallSeen, audit: AuditEntry): unknown[] {
  const had = new Set(progressValues(seen));
  const upstreamSent = new Set<unknown>(audit.notifications.map((n) => n.progress));
  return seen.afterCancel
    .filter((a) => a.message.method === 'notifications/progress')
    .map((a) => paramsOf(a.message).progress)
    .filter((p) => {
      const known = upstreamSent.has(p) && !had.has(p);
      had.add(p);
      return !known;
    });
}

/** What one cancellation row saw, for its judgement. */
interface CancelSeen {
  readonly name: string;
  readonly id: string | number;
  readonly by: { progress?: number; ms?: number };
  readonly session: CheckSession;
  readonly seen: CallSeen;
  readonly audit: AuditEntry | string;
  readonly numbers: PropertyResult['numbers'];
  readonly calls: TimelineCall[];
}

/** The verdict of a cancellation row whose call the upstream's record shows not cancelled. */
function notCancelled(
  name: string,
  by: CancelSeen['by'],
  seen: CallSeen,
  audit: AuditEntry,
  sent: string,
  numbers: PropertyResult['numbers'],
  calls: TimelineCall[],
): PropertyResult {
  const cancelAtMs = seen.cancelAtMs ?? 0;
  const cancelEpoch = seen.startedEpochMs + cancelAtMs;
  const upstreamEnd = audit.durationMs === null ? undefined : audit.startedAtEpochMs + audit.durationMs;
  if (upstreamEnd !== undefined && upstreamEnd < cancelEpoch) {
    return result(
      name,
      'fail',
      `${LEG.client}: progress ${by.progress ?? ''} reached the client ${(cancelEpoch - upstreamEnd).toFixed(0)} ms after the upstream had finished (${LEG.upstream}: ${upstreamSaid(audit)}): the gateway held progress back, so the client's cancel ${sent} came too late to stop anything`,
      numbers,
      calls,
    );
  }
  if (audit.cancelBeforeCallMs !== undefined) {
    // The upstream ignored a cancel for a request it did not know yet, as a server may: the row looks again.
    return result(
      name,
      'fail',
      `${LEG.client}: sent ${sent} ${cancelAtMs.toFixed(0)} ms into the call. ${LEG.upstream}: the cancel reached the upstream ${audit.cancelBeforeCallMs.toFixed(0)} ms before the call it names (${upstreamSaid(audit)}), so the upstream could not stop it`,
      { ...numbers, cancelBeforeCallMs: audit.cancelBeforeCallMs },
      calls,
    );
  }
  return result(
    name,
    'fail',
    `${LEG.client}: sent ${sent} ${cancelAtMs.toFixed(0)} ms into the call. ${LEG.upstream}: ${upstreamSaid(audit)}: the cancel never reached it under the id it knows (${JSON.stringify(audit.requestId)}), it ran ${audit.stepsCompleted} of 40 steps`,
    numbers,
    calls,
  );
}

/** The verdict of a cancellation row from both legs: the client's call and the upstream's record of it. */
function judgeCancel({ name, id, by, session, seen, audit, numbers, calls }: CancelSeen): PropertyResult {
  const got = progressValues(seen).length;
  if (seen.cancelAtMs === undefined && by.progress !== undefined && got < by.progress) {
    // The cancel waits for progress the gateway never delivered: that loss is the progress rows'
    // verdict, and failing here too would blame the gateway for a cancel it was never sent.
    return notExercised(
      name,
      `not judged: the cancel after progress ${by.progress} could not be sent, because only ${got} progress notification${got === 1 ? '' : 's'} reached the client (${seen.response ? 'then the result' : `no result: ${seen.error ?? 'stream closed'}`}); the progress rows report that loss, and the timed cancel row judges cancellation without progress. ${LEG.upstream}: ${upstreamSaid(audit)}`,
      numbers,
      calls,
    );
  }
  if (seen.cancelAtMs === undefined) {
    return result(
      name,
      'fail',
      `${LEG.client}: the call ended before the cancel could be sent: ${progressValues(seen).length} progress, ${seen.response ? answerOf(seen.response.message) : `no result (${seen.error ?? 'stream closed'})`}. ${LEG.upstream}: ${upstreamSaid(audit)}`,
      numbers,
      calls,
    );
  }
  // The modern era's cancel is the client closing the call's stream: no message to quote.
  const sent =
    session.era === 'modern'
      ? 'the close of its stream (2026-07-28)'
      : quote(frameWith(session, 'notifications/cancelled') ?? '(not recorded)');
  if (typeof audit === 'string')
    return result(
      name,
      'fail',
      `cannot tell whether the cancel ${sent} reached the upstream: ${audit}`,
      numbers,
      calls,
    );
  if (!audit.cancelled) return notCancelled(name, by, seen, audit, sent, numbers, calls);
  const cancelEpoch = seen.startedEpochMs + (seen.cancelAtMs ?? 0);
  // Notifications the upstream sent before the cancel reached it were in flight and may still
  // arrive, however late a loaded machine delivers them; a result after the cancel, or a
  // notification the upstream never sent (or the client already had), means the gateway kept
  // forwarding or invented messages.
  const late = seen.afterCancel.filter((a) => a.message.method === 'notifications/progress');
  const lateResult = seen.afterCancel.find((a) => !('method' in a.message));
  const foreign = unsentAfterCancel(seen, audit);
  const latency = audit.cancelledAtMs === null ? undefined : audit.startedAtEpochMs + audit.cancelledAtMs - cancelEpoch;
  if (lateResult || foreign.length > 0) {
    return result(
      name,
      'fail',
      `${LEG.client}: after the cancel the client still received ${late.length} notifications${foreign.length > 0 ? ` (progress ${foreign.map((p) => JSON.stringify(p)).join(', ')} never sent by the upstream or already received)` : ''}${lateResult ? ` and the result ${quote(JSON.stringify(lateResult.message))}` : ''}; ${LEG.upstream}: the upstream sent ${audit.notifications.length} in all and stopped after ${audit.stepsCompleted} steps`,
      numbers,
      calls,
    );
  }
  return result(
    name,
    'pass',
    `${LEG.upstream}: the upstream saw the cancel for its request id ${JSON.stringify(audit.requestId)} (client id ${JSON.stringify(id)}) after ${audit.stepsCompleted} steps, ${latency === undefined ? '' : `${latency.toFixed(0)} ms after the client sent it`}; ${LEG.client}: ${late.length} notifications after it, all sent by the upstream before the cancel reached it`,
    numbers,
    calls,
  );
}

/** One look of a cancellation row, and how early its cancel reached the upstream when it overtook the call. */
async function lookOnce(
  context: BatteryContext,
  name: string,
  label: string,
  id: string | number,
  by: CancelSeen['by'],
): Promise<{ readonly judged: PropertyResult; readonly earlyMs?: number }> {
  return withSession(context, async (session) => {
    const tag = newTag('cancel');
    const seen = await session.call({
      tool: 'progress_tight',
      arguments: { steps: 40, step_ms: 50, tag },
      id,
      token: tag,
      ...(by.progress !== undefined && { cancelAfterProgress: by.progress }),
      ...(by.ms !== undefined && { cancelAfterMs: by.ms }),
    });
    const audit = await auditRow(context, session, tag);
    const calls = [lane(label, seen, audit)];
    const numbers = {
      ...seenNumbers(seen),
      afterCancel: seen.afterCancel.length,
      ...(typeof audit === 'object' && { upstreamCancelled: audit.cancelled, stepsCompleted: audit.stepsCompleted }),
    };
    const judged = judgeCancel({ name, id, by, session, seen, audit, numbers, calls });
    const early = typeof audit === 'object' && !audit.cancelled ? audit.cancelBeforeCallMs : undefined;
    return { judged, ...(early !== undefined && { earlyMs: Math.round(early) }) };
  });
}

/**
 * Cancellation judged by the upstream's own record, found by tag whatever the gateway did to ids. A
 * cancel that reached the upstream before the call it names (two POSTs, which nothing orders; a
 * starved gateway process lets the later overtake) is looked at again in a new session: once is the
 * machine's, twice is a gateway that holds calls back while it forwards their cancels.
 */
export const cancellation = (
  label: string,
  id: string | number,
  by: { progress?: number; ms?: number },
): BatteryProperty =>
  row(`cancellation (${label})`, 'light', async (context, name) => {
    const first = await lookOnce(context, name, label, id, by);
    if (first.earlyMs === undefined) return first.judged;
    const second = await lookOnce(context, name, label, id, by);
    const calls = [...first.judged.calls, ...second.judged.calls];
    if (second.earlyMs === undefined) {
      const note = `looked twice: in the first look the cancel reached the upstream ${first.earlyMs} ms before the call it names, as two POSTs on a loaded machine can`;
      return { ...second.judged, evidence: `${second.judged.evidence} (${note})`, calls };
    }
    return result(
      name,
      'fail',
      `${LEG.upstream}: in two looks the cancel reached the upstream before the call it names (${first.earlyMs} and ${second.earlyMs} ms before): the gateway holds a call back while it forwards its cancel, so the upstream cannot stop it. Second look: ${second.judged.evidence}`,
      second.judged.numbers,
      calls,
    );
  });

/** Messages of the call's exchange that the client received after it closed the stream (none can, if it really closed). */
function afterClose(recording: Recording): number {
  const close = recording.frames.find((f) => f.channel === 'close');
  if (!close) return 0;
  return recording.frames.filter(
    (f) => f.exchange === close.exchange && f.dir === 'server->client' && f.t > close.t && frameMessage(f),
  ).length;
}

const CLOSE_ROW = 'cancel by closing the stream (2026-07-28)';
const CLOSE_STEPS = 20;
const CLOSE_STEP_MS = 100;

/**
 * A client that hangs up cancels the upstream call: a modern client closes its stream; a modern
 * upstream over HTTP must then see its stream closed, a 2025 upstream (or any over stdio)
 * `notifications/cancelled` with its own id; a 2025 client's `notifications/cancelled` must become a closed stream towards a modern
 * upstream. Nothing reaches the client after the cancel.
 */
export const cancelByClosing = row(
  CLOSE_ROW,
  'light',
  async (context) => {
    const clientEra = clientEraOf(context);
    const upstreamEra = upstreamEraOf(context);
    const tag = newTag('close');
    let recording: Recording;
    try {
      recording = await recordThrough(context, {
        tool: 'progress_tight',
        arguments: { steps: CLOSE_STEPS, step_ms: CLOSE_STEP_MS, tag },
        progressToken: tag,
        cancelAfter: 2,
        era: clientEra,
        timeoutMs: context.timeoutMs,
      });
    } catch (error) {
      return result(
        CLOSE_ROW,
        'fail',
        `${LEG.client}: the call failed before the cancel: ${callFailure(context, error)}`,
      );
    }
    const how = clientEra === 'modern' ? 'closed its stream' : 'sent notifications/cancelled';
    const late = clientEra === 'modern' ? afterClose(recording) : recording.outcome.afterCancel.length;
    const rows = await rowsTagged(context, tag, CLOSE_STEPS * CLOSE_STEP_MS + 1000);
    const row = rows.at(-1);
    const numbers = {
      progressReceived: recording.outcome.progress.length,
      afterCancel: late,
      upstreamSteps: row?.stepsCompleted ?? -1,
      upstreamCancelled: row?.cancelled ?? false,
    };
    const clientSide = `${LEG.client}: the client ${how} after progress ${recording.outcome.progress.length}; ${late} message(s) for the call reached it afterwards`;
    if (!row) {
      return result(
        CLOSE_ROW,
        'fail',
        `${clientSide}; ${LEG.upstream}: no call tagged ${tag} in the upstream's audit log`,
        numbers,
      );
    }
    // 2026-07-28 cancels by closing the stream over HTTP only: over stdio it is notifications/cancelled, as in 2025.
    const closes = upstreamEra === 'modern' && context.upstreamTransport !== 'stdio';
    const expected = closes ? 'its stream closed' : 'notifications/cancelled with its own request id';
    const byClose = row.cancelReason === 'the client closed the stream';
    const reached = row.cancelled && row.stepsCompleted < CLOSE_STEPS && closes === byClose;
    const upstreamSide = `${LEG.upstream}: ${describeAuditRow(row)}`;
    const why = !row.cancelled
      ? `the cancel never reached the upstream (expected ${expected})`
      : `the upstream was cancelled the wrong way (expected ${expected})`;
    if (late > 0) {
      const upstreamToo = reached ? upstreamSide : `${upstreamSide}: ${why}`;
      return result(CLOSE_ROW, 'fail', `${clientSide} (expected none); ${upstreamToo}`, numbers);
    }
    if (!reached) return result(CLOSE_ROW, 'fail', `${upstreamSide}: ${why}; ${clientSide}`, numbers);
    return result(
      CLOSE_ROW,
      'pass',
      `${clientSide}; ${upstreamSide}: the upstream saw ${expected} and stopped (${erasLabel(context)})`,
      numbers,
    );
  },
  {
    era: 'modern',
    waits: true,
    needs: {
      eras: {
        either: {
          is: 'modern',
          why: 'both legs speak 2025-11-25: a cancel is notifications/cancelled there, judged by the cancellation rows',
        },
      },
    },
  },
);
