import { setTimeout as sleep } from 'node:timers/promises';
import { describeError } from '../errors.js';
import { type Recording, recordCall } from '../record/record-call.js';
import type { Scenario } from '../record/scenario.js';
import type { AuditEntry } from '../server/audit-log.js';
import { type Era, MODERN_PROTOCOL_VERSION } from '../transcript/frame.js';
import { frameMessage } from '../transcript/frame-content.js';
import { memberOf } from '../transcript/json-object.js';
import { progressOf } from '../transcript/json-rpc.js';
import { decodeHeaderValue } from '../transcript/modern-envelope.js';
import type { BatteryContext, BatteryProperty, PropertyResult } from './battery.js';
import { LEG, newTag, result } from './row-kit.js';
import { TASK_ROWS } from './task-rows.js';

/** The era the check's client speaks to the gateway. */
export const clientEraOf = (context: BatteryContext): Era => context.clientEra ?? 'legacy';
/** The era of the reference upstream behind the gateway. */
export const upstreamEraOf = (context: BatteryContext): Era => context.upstreamEra ?? 'legacy';

/** `client modern, upstream legacy`: how the evidence names a combination. */
export function erasLabel(context: BatteryContext): string {
  return `client ${clientEraOf(context)}, upstream ${upstreamEraOf(context)}`;
}

const notApplicable = (property: string, why: string): PropertyResult => result(property, 'n/a', why);

/** The upstream's audit rows of the calls tagged `tag` (two for a re-issued call), once all have ended or `waitMs` passed. */
async function rowsTagged(context: BatteryContext, tag: string, waitMs: number): Promise<AuditEntry[]> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const rows = (await context.audit().catch(() => [] as AuditEntry[])).filter(
      (e) => memberOf(e.arguments, 'tag') === tag,
    );
    if ((rows.length > 0 && rows.every((r) => r.outcome !== 'running')) || Date.now() > deadline) return rows;
    await sleep(25);
  }
}

const describeRow = (row: AuditEntry): string =>
  `id ${JSON.stringify(row.requestId)}: ${row.outcome} after ${row.stepsCompleted} steps, ${row.notifications.length} progress sent${row.cancelled ? `, cancelled (${row.cancelReason ?? 'no reason'}) at ${row.cancelledAtMs?.toFixed(0)} ms` : ''}`;

/** The id of the last `tools/call` the client sent (the re-issue's, after a drop). */
function lastCallId(recording: Recording): unknown {
  const calls = recording.frames
    .filter((f) => f.dir === 'client->server')
    .map(frameMessage)
    .filter((m) => m?.method === 'tools/call');
  return calls.at(-1)?.id;
}

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
 * upstream must then see its stream closed, a 2025 upstream `notifications/cancelled` with its own
 * id; a 2025 client's `notifications/cancelled` must become a closed stream towards a modern
 * upstream. Nothing reaches the client after the cancel.
 */
const cancelByClosing: BatteryProperty = {
  name: CLOSE_ROW,
  load: 'light',
  waits: true,
  async run(context) {
    const clientEra = clientEraOf(context);
    const upstreamEra = upstreamEraOf(context);
    if (clientEra === 'legacy' && upstreamEra === 'legacy') {
      return notApplicable(
        CLOSE_ROW,
        'both legs speak 2025-11-25: a cancel is notifications/cancelled there, judged by the cancellation rows',
      );
    }
    const tag = newTag('close');
    let recording: Recording;
    try {
      recording = await recordCall(context.gateway, {
        tool: 'progress_tight',
        arguments: { steps: CLOSE_STEPS, step_ms: CLOSE_STEP_MS, tag },
        progressToken: tag,
        cancelAfter: 2,
        era: clientEra,
        timeoutMs: context.timeoutMs,
      });
    } catch (error) {
      return result(CLOSE_ROW, 'fail', `${LEG.client}: the call failed before the cancel: ${firstLine(error)}`);
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
    const expected = upstreamEra === 'modern' ? 'its stream closed' : 'notifications/cancelled with its own request id';
    const byClose = row.cancelReason === 'the client closed the stream';
    const reached = row.cancelled && row.stepsCompleted < CLOSE_STEPS && (upstreamEra === 'modern') === byClose;
    const upstreamSide = `${LEG.upstream}: ${describeRow(row)}`;
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
};

const HEADERS_ROW = 'Mcp-* headers reach the upstream (2026-07-28)';

/** `Mcp-Method`, `Mcp-Name` and `MCP-Protocol-Version` reach a modern upstream and agree with the body it receives. */
const mcpHeaders: BatteryProperty = {
  name: HEADERS_ROW,
  load: 'light',
  async run(context) {
    if (upstreamEraOf(context) === 'legacy') {
      return notApplicable(HEADERS_ROW, 'the 2025-11-25 upstream takes no Mcp-* headers');
    }
    // Not ASCII: the tag's Mcp-Param-Tag header goes in the =?base64?…?= form.
    const tag = `${newTag('headers')}-é🚀`;
    const scenario: Scenario = {
      tool: 'progress_tight',
      arguments: { steps: 2, step_ms: 10, tag },
      progressToken: tag,
      era: clientEraOf(context),
      timeoutMs: context.timeoutMs,
    };
    let clientSide: string;
    try {
      const recording = await recordCall(context.gateway, scenario);
      clientSide = `${LEG.client}: the call returned ${recording.outcome.response ? 'its result' : 'no result'}`;
    } catch (error) {
      clientSide = `${LEG.client}: the call was refused: ${firstLine(error)}`;
    }
    const row = (await rowsTagged(context, tag, 1000)).at(-1);
    if (!row) {
      return result(
        HEADERS_ROW,
        'fail',
        `${LEG.upstream}: no call tagged ${tag} reached the tool (the upstream refused the request before running it); ${clientSide}`,
        { headersChecked: 0 },
      );
    }
    const got = row.mcpHeaders ?? {};
    const want: Record<string, string> = {
      'mcp-method': 'tools/call',
      'mcp-name': row.tool,
      'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
      // The check tools mark `tag` with x-mcp-header: Tag.
      'mcp-param-tag': tag,
    };
    const wrong = Object.entries(want)
      .filter(([name, value]) => got[name] === undefined || decodeHeaderValue(got[name] as string) !== value)
      .map(
        ([name, value]) =>
          `${name} ${got[name] === undefined ? 'missing' : JSON.stringify(got[name])}, the body says ${JSON.stringify(value)}`,
      );
    const seen = Object.entries(got)
      .map(([name, value]) => `${name}: ${value}`)
      .join(', ');
    if (wrong.length > 0) {
      return result(
        HEADERS_ROW,
        'fail',
        `${LEG.upstream}: ${wrong.join('; ')} (received ${seen || 'no Mcp-* header'}); ${clientSide}`,
        {
          headersChecked: Object.keys(want).length,
          headersWrong: wrong.length,
        },
      );
    }
    return result(
      HEADERS_ROW,
      'pass',
      `${LEG.upstream}: received ${seen}, agreeing with the body's method, name and arguments.tag (non-ASCII, sent base64); ${clientSide}`,
      { headersChecked: Object.keys(want).length, headersWrong: 0 },
    );
  },
};

const REISSUE_ROW = 're-issue after a drop (2026-07-28)';
const REISSUE_STEPS = 5;

/** After a mid-call drop the modern client re-issues the call with a new id: no stale frames, one result, under the new id. */
const reissue: BatteryProperty = {
  name: REISSUE_ROW,
  load: 'light',
  async run(context) {
    if (clientEraOf(context) === 'legacy') {
      return notApplicable(
        REISSUE_ROW,
        'a 2025-11-25 client resumes a dropped stream with Last-Event-ID (the Last-Event-ID resume row); it does not re-issue',
      );
    }
    const tag = newTag('reissue');
    let recording: Recording;
    try {
      recording = await recordCall(context.gateway, {
        tool: 'progress_tight',
        arguments: { steps: REISSUE_STEPS, step_ms: 100, tag },
        progressToken: tag,
        dropAfter: 2,
        era: 'modern',
        timeoutMs: context.timeoutMs,
      });
    } catch (error) {
      return result(REISSUE_ROW, 'fail', `${LEG.client}: the re-issued call failed: ${firstLine(error)}`);
    }
    const progress = recording.outcome.progress.map((m) => progressOf(m)?.progress);
    const fresh = progress.slice(2);
    const newId = lastCallId(recording);
    const response = recording.outcome.response;
    const rows = await rowsTagged(context, tag, 1000);
    const upstreamSide = `${LEG.upstream}: ${rows.length} call(s) tagged: ${rows.map(describeRow).join('; ') || 'none'}`;
    const numbers = { progressAfterReissue: fresh.length, result: response !== undefined, upstreamCalls: rows.length };
    const expected = Array.from({ length: REISSUE_STEPS }, (_, i) => i + 1);
    const problems: string[] = [];
    if (JSON.stringify(fresh) !== JSON.stringify(expected)) {
      problems.push(
        `after the re-issue progress arrived as ${JSON.stringify(fresh)}, expected ${JSON.stringify(expected)} (stale frames of the dropped call, or lost ones)`,
      );
    }
    if (!response) problems.push('no result arrived for the re-issued call');
    else if (response.id !== newId) {
      problems.push(
        `the result came under id ${JSON.stringify(response.id)}, the re-issue's id is ${JSON.stringify(newId)}`,
      );
    }
    const last = rows.at(-1);
    if (!last || last.requestId === rows[0]?.requestId || last.outcome !== 'result') {
      problems.push('the upstream did not run the re-issued call to its result');
    }
    if (problems.length > 0) {
      return result(REISSUE_ROW, 'fail', `${LEG.client}: ${problems.join('; ')}; ${upstreamSide}`, numbers);
    }
    return result(
      REISSUE_ROW,
      'pass',
      `${LEG.client}: dropped after progress 2, re-issued as id ${JSON.stringify(newId)}: progress ${fresh.join(', ')} then the result under that id; ${upstreamSide}`,
      numbers,
    );
  },
};

function firstLine(error: unknown): string {
  return describeError(error).split('\n')[0] ?? '';
}

/** The rows of the 2026-07-28 duties, in the order they run (the tasks extension's last: task-rows.ts). */
export const ERA_ROWS: readonly BatteryProperty[] = [cancelByClosing, mcpHeaders, reissue, ...TASK_ROWS];

/** The row that opens the 2025 standalone GET stream beside a call. */
const GET_ROW = 'progress on the call stream (GET stream open)';

/**
 * Why `property` has no meaning in the context's eras, or `undefined` when it runs. The 2025 session
 * rows (stream-rows.ts) run on a modern session in the modern client era (the recorder's envelope,
 * cancel by closing the stream), except the GET stream's.
 */
export function eraSkip(property: BatteryProperty, context: BatteryContext): string | undefined {
  if (clientEraOf(context) !== 'modern') return undefined;
  if (property.name === 'Last-Event-ID resume') {
    return 'the 2026-07-28 era has no Last-Event-ID resumption (a dropped call is re-issued: see the re-issue row)';
  }
  if (property.name === GET_ROW) return 'the 2026-07-28 era has no standalone GET stream (no sessions)';
  if (property.name === "Last-Event-ID never replays another session's events") {
    return 'the 2026-07-28 era has neither sessions nor Last-Event-ID resumption';
  }
  return undefined;
}
