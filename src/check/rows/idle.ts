import type { Recording } from '../../record/record-call.js';
import type { AuditEntry } from '../../server/audit-log.js';
import { frameMessage } from '../../transcript/frame-content.js';
import { errorOf, resultOf } from '../../transcript/json-rpc.js';
import { rowsTagged } from '../audit.js';
import { callFailure, erasLabel, LEG, newTag, quote, recordThrough, result, row } from '../kit.js';

/** The row's name. */
export const IDLE_ROW = 'idle budget: a silent call gets its result (2026-07-28)';

/** How long the idle row's call stays silent, unless `--idle-budget-ms` says otherwise. */
const DEFAULT_IDLE_BUDGET_MS = 3000;

/** Milliseconds from the call's request to its response headers and to its result, from the client's frames. */
function timesOf(recording: Recording): { headersMs?: number; resultMs?: number } {
  const request = recording.frames.find(
    (f) => f.dir === 'client->server' && frameMessage(f)?.method === 'tools/call' && f.channel !== 'http',
  );
  if (!request) return {};
  const sent = recording.frames.find((f) => f.exchange === request.exchange)?.t ?? request.t;
  const headers = recording.frames.find(
    (f) => f.exchange === request.exchange && f.dir === 'server->client' && f.channel === 'http',
  );
  const answer = recording.frames.find(
    (f) => f.exchange === request.exchange && f.dir === 'server->client' && frameMessage(f)?.id !== undefined,
  );
  const ms = (t: number): number => Math.round((t - sent) / 1000);
  return { ...(headers && { headersMs: ms(headers.t) }), ...(answer && { resultMs: ms(answer.t) }) };
}

const describeUpstream = (row: AuditEntry | undefined, tag: string): string =>
  row
    ? `${LEG.upstream}: id ${JSON.stringify(row.requestId)}: ${row.outcome}${row.cancelled ? ` (${row.cancelReason ?? 'cancelled'}) at ${row.cancelledAtMs?.toFixed(0)} ms` : ` after ${row.durationMs?.toFixed(0)} ms`}`
    : `${LEG.upstream}: no call tagged ${tag} in the upstream's audit log`;

/**
 * A call that sends nothing for the idle budget, then its result: a 2026-07-28 upstream in `auto`
 * response mode sends no response headers until then, so a gateway with a shorter idle timeout
 * (time to first byte) cuts it. The row reports when the client got headers and the result, or
 * when the gateway cut the call or answered an error, and what the upstream saw.
 */
export const idleBudget = row(
  IDLE_ROW,
  'light',
  async (context) => {
    const budgetMs = context.idleBudgetMs ?? DEFAULT_IDLE_BUDGET_MS;
    const tag = newTag('idle');
    const started = Date.now();
    let recording: Recording | undefined;
    let failure: string | undefined;
    try {
      recording = await recordThrough(context, {
        tool: 'silent_result',
        arguments: { silent_ms: budgetMs, tag },
        timeoutMs: budgetMs + context.timeoutMs,
      });
    } catch (error) {
      failure = callFailure(context, error);
    }
    const endedMs = Date.now() - started;
    const row = (await rowsTagged(context, tag, 1000)).at(-1);
    const upstreamSide = describeUpstream(row, tag);
    const silence = `the upstream stayed silent for ${budgetMs} ms (--idle-budget-ms), no response headers before its result`;
    if (!recording) {
      return result(
        IDLE_ROW,
        'fail',
        `${LEG.client}: the gateway cut the call ${endedMs} ms after it was sent: ${failure}; ${silence}; ${upstreamSide}`,
        { budgetMs, cutMs: endedMs },
      );
    }
    const { headersMs, resultMs } = timesOf(recording);
    const response = recording.outcome.response;
    const error = response ? errorOf(response) : undefined;
    const numbers = { budgetMs, headersMs: headersMs ?? -1, resultMs: resultMs ?? -1 };
    const done = resultOf(response)?.structuredContent;
    if (!response || error || (done as { done?: unknown } | undefined)?.done !== true) {
      const what = error
        ? `the gateway answered error ${error.code} ${quote(error.message)}`
        : response
          ? `the result arrived without the upstream's answer: ${quote(JSON.stringify(resultOf(response)))}`
          : 'no result arrived';
      return result(
        IDLE_ROW,
        'fail',
        `${LEG.client}: ${what} ${resultMs ?? endedMs} ms after the call was sent (headers after ${headersMs ?? '-'} ms); ${silence}; ${upstreamSide}`,
        { ...numbers, cutMs: resultMs ?? endedMs },
      );
    }
    return result(
      IDLE_ROW,
      'pass',
      `${LEG.client}: response headers after ${headersMs} ms, the result after ${resultMs} ms; ${silence}; ${upstreamSide} (${erasLabel(context)})`,
      numbers,
    );
  },
  {
    era: 'modern',
    waits: true,
    needs: {
      eras: {
        upstream: {
          is: 'modern',
          why: 'a 2025-11-25 upstream opens its SSE stream (sends response headers) as soon as the call arrives; the idle budget concerns a 2026-07-28 upstream, which sends none before its first notification or result',
        },
      },
    },
  },
);
