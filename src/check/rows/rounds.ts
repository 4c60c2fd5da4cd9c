import { isDeepStrictEqual } from 'node:util';
import type { Recording } from '../../record/record-call.js';
import type { AuditEntry } from '../../server/audit-log.js';
import { frameMessage, type JsonRpcMessage } from '../../transcript/frame-content.js';
import { isResponse, resultOf } from '../../transcript/json-rpc.js';
import { rowsTagged } from '../audit.js';
import { callFailure, erasLabel, LEG, newTag, quote, recordThrough, result, row } from '../kit.js';
import type { BatteryContext, PropertyResult } from '../vocabulary.js';

/** The row's name. */
export const ROUND_ROW = 'input_required rounds pass through (2026-07-28)';

/** What the check's client answers the upstream's embedded `elicitation/create` with (non-ASCII on purpose). */
const ROUND_ANSWER = { action: 'accept', content: { ok: true, note: 'yes é🚀 "quoted"' } } as const;

const show = (value: unknown): string =>
  value === undefined ? 'absent' : typeof value === 'string' ? quote(value, 120) : (JSON.stringify(value) ?? '');

/** The messages of one direction of the recording, in order. */
function messages(recording: Recording, dir: 'client->server' | 'server->client'): JsonRpcMessage[] {
  return recording.frames
    .filter((f) => f.dir === dir)
    .map(frameMessage)
    .filter((m): m is JsonRpcMessage => m !== undefined);
}

/** The first `input_required` result the client received, and the retry it sent after it. */
function clientLeg(recording: Recording): {
  asked?: Readonly<Record<string, unknown>>;
  retry?: Record<string, unknown>;
} {
  const asked = messages(recording, 'server->client')
    .filter(isResponse)
    .map((m) => resultOf(m))
    .find((r) => r?.resultType === 'input_required');
  const calls = messages(recording, 'client->server').filter((m) => m.method === 'tools/call');
  const retry = calls[1]?.params as Record<string, unknown> | undefined;
  return { ...(asked && { asked }), ...(retry && { retry }) };
}

/**
 * A 2026-07-28 multi-round-trip call through the gateway: the upstream's `input_required` result
 * (an embedded `elicitation/create` and an opaque `requestState`) must reach the client intact,
 * and the client's retry (a new id, `inputResponses` and the `requestState` echoed) must reach the
 * upstream intact, value for value. Both legs are read: the client's frames and the upstream's audit.
 */
export const inputRounds = row(
  ROUND_ROW,
  'light',
  async (context) => {
    const tag = newTag('round');
    let recording: Recording | undefined;
    let failure: string | undefined;
    try {
      recording = await recordThrough(context, {
        tool: 'input_round',
        arguments: { tag },
        era: 'modern',
        answers: { 'elicitation/create': ROUND_ANSWER },
        timeoutMs: context.timeoutMs,
      });
    } catch (error) {
      failure = callFailure(context, error);
    }
    const rows = await rowsTagged(context, tag, 1000, 2);
    return judge(context, recording, failure, rows);
  },
  {
    era: 'modern',
    needs: {
      eras: {
        client: {
          is: 'modern',
          why: 'a 2025-11-25 client gets server requests (elicitation/create) on the call stream, not input_required results',
        },
        upstream: {
          is: 'modern',
          why: 'a 2025-11-25 upstream sends server requests on the call stream; it answers no input_required',
        },
      },
    },
  },
);

function judge(
  context: BatteryContext,
  recording: Recording | undefined,
  failure: string | undefined,
  rows: AuditEntry[],
): PropertyResult {
  const sentUp = rows.find((r) => r.inputRound?.sent)?.inputRound?.sent;
  const retryRow = rows.find((r) => r.inputRound?.received);
  const got = retryRow?.inputRound?.received;
  const { asked, retry } = recording ? clientLeg(recording) : {};
  const numbers = { upstreamRounds: rows.length, clientRetried: retry !== undefined, completed: false };
  const upstreamSide = `${LEG.upstream}: ${rows.length} round(s) reached the upstream${rows
    .slice(0, 3)
    .map(
      (r) =>
        `; id ${JSON.stringify(r.requestId)}: ${r.inputRound?.sent ? 'answered input_required' : r.outcome}${r.inputRound?.received ? ` after receiving requestState ${show(r.inputRound.received.requestState)} and inputResponses ${show(r.inputRound.received.inputResponses)}` : ''}`,
    )
    .join('')}${rows.length > 3 ? '; …' : ''}`;
  const problems: string[] = [];
  if (failure) problems.push(`${LEG.client}: the call failed: ${failure}`);
  if (!sentUp) problems.push(`${LEG.upstream}: the upstream never answered input_required (no first round reached it)`);
  else if (recording && !asked) problems.push(`${LEG.client}: no input_required result reached the client`);
  else if (asked) {
    for (const field of ['inputRequests', 'requestState'] as const) {
      if (!isDeepStrictEqual(asked[field], sentUp[field])) {
        problems.push(
          `${LEG.client}: the input_required result's ${field} arrived as ${show(asked[field])}, the upstream sent ${show(sentUp[field])}`,
        );
      }
    }
  }
  if (!retry && !got && rows.length > 1) {
    problems.push(
      `${LEG.upstream}: ${rows.length - 1} retries reached the upstream carrying neither inputResponses nor requestState (the client sends both on every retry)`,
    );
  }
  if (retry) {
    const fields = ['inputResponses', 'requestState'] as const;
    if (!got) {
      problems.push(
        `${LEG.upstream}: the client's retry (requestState ${show(retry.requestState)}) reached the upstream without inputResponses or requestState`,
      );
    } else {
      for (const field of fields) {
        if (!isDeepStrictEqual(got[field], retry[field])) {
          problems.push(
            `${LEG.upstream}: the retry's ${field} arrived as ${show(got[field])}, the client sent ${show(retry[field])}`,
          );
        }
      }
    }
  }
  const final = recording?.outcome.response;
  const completed = final !== undefined && resultOf(final)?.resultType === 'complete';
  if (!failure && !completed) {
    const error = final?.error as { code?: unknown; message?: unknown } | undefined;
    const got = error
      ? `: it got error ${String(error.code)} ${JSON.stringify(String(error.message).slice(0, 200))}`
      : '';
    problems.push(`${LEG.client}: the call did not end with a complete result${got}`);
  }
  const judged = { ...numbers, completed };
  if (problems.length > 0) return result(ROUND_ROW, 'fail', `${problems.join('; ')}. ${upstreamSide}`, judged);
  const state = String(retry?.requestState);
  return result(
    ROUND_ROW,
    'pass',
    `${LEG.client}: input_required arrived with inputRequests.confirm (elicitation/create) and requestState as the upstream sent them, retried with inputResponses.confirm and the ${[...state].length}-character requestState, then the complete result; ${upstreamSide}: both value for value (${erasLabel(context)})`,
    judged,
  );
}
