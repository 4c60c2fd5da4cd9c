import { setTimeout as sleep } from 'node:timers/promises';
import type { AuditEntry } from '../server/audit-log.js';
import { MULTIBYTE_FILLER, multibyteBlock } from '../server/check-tools.js';
import { firstDifference } from '../transcript/first-difference.js';
import { paramsOf, progressOf as progressParams, resultContent, resultTexts } from '../transcript/json-rpc.js';
import type { BatteryContext, BatteryLoad, BatteryProperty, PropertyResult } from './battery.js';
import type { CallSeen, CheckSession } from './check-session.js';
import { auditRow, frameWith, LEG, lane, newTag, quote, result, seenNumbers, thrown, withSession } from './row-kit.js';

function row(
  name: string,
  load: BatteryLoad,
  run: (context: BatteryContext, name: string) => Promise<PropertyResult>,
  waits = false,
): BatteryProperty {
  return { name, load, waits, run: (context) => run(context, name).catch((error: unknown) => thrown(name, error)) };
}

const progressOf = (seen: CallSeen): unknown[] => seen.progress.map((p) => progressParams(p.message)?.progress);

const upstreamSaid = (row: Awaited<ReturnType<typeof auditRow>>): string =>
  typeof row === 'string'
    ? row
    : `the upstream (audit row ${row.seq}) received request id ${JSON.stringify(row.requestId)} and token ${JSON.stringify(row.progressToken)}, sent ${row.notifications.length} notifications, outcome ${row.outcome}${row.cancelled ? `, cancelled at ${row.cancelledAtMs?.toFixed(0)} ms` : ''}`;

/** Large output with 2-, 3- and 4-byte characters: decoders that split sequences across reads show U+FFFD. */
const multibyte = (blocks: number, chars: number): BatteryProperty =>
  row(`large multibyte output (${blocks} x ${chars / 1024} Ki chars)`, 'heavy', (context, name) =>
    withSession(context, async (session) => {
      const tag = newTag('multibyte');
      const seen = await session.call({
        tool: 'multibyte_output',
        arguments: { blocks, chars, tag },
        id: 'check-multibyte',
      });
      const content = resultContent(seen.response?.message);
      if (!content)
        return result(name, 'fail', `${LEG.client}: no result arrived${seen.error ? ` (${seen.error})` : ''}`);
      const texts = resultTexts(seen.response?.message);
      const bytes = texts.reduce((n: number, text) => n + Buffer.byteLength(text ?? ''), 0);
      for (let n = 0; n < blocks; n++) {
        const got = texts[n] ?? '';
        const want = multibyteBlock(n, chars);
        if (got === want) continue;
        const at = firstDifference(got, want);
        const bad = (got.match(/\uFFFD/g) ?? []).length;
        return result(
          name,
          'fail',
          `${LEG.client}: block ${n} of ${content.length} differs from character ${at} on: got ${quote(got.slice(Math.max(0, at - 8), at + 12))}, expected ${quote(want.slice(Math.max(0, at - 8), at + 12))} (${bad} U+FFFD replacement characters in the block, ${got.length} vs ${want.length} UTF-16 units); the upstream sent "${MULTIBYTE_FILLER}" cycles, ${blocks} blocks`,
          { blocks: content.length, replacementChars: bad, firstDifference: at },
        );
      }
      if (content.length !== blocks)
        return result(name, 'fail', `${LEG.client}: ${content.length} blocks arrived, expected ${blocks}`);
      return result(
        name,
        'pass',
        `${blocks} blocks, ${(bytes / 1e6).toFixed(1)} MB of 1- to 4-byte UTF-8, byte-identical`,
        { blocks, bytes },
      );
    }),
  );

/** The final progress notification written back-to-back with the result must still arrive, before it. */
const backToBack = row('final progress back-to-back with the result', 'light', (context, name) =>
  withSession(context, async (session) => {
    const tag = newTag('tight');
    const seen = await session.call({
      tool: 'progress_tight',
      arguments: { steps: 3, step_ms: 30, tag },
      id: 'check-tight',
      token: tag,
    });
    const audit = await auditRow(context, session, tag);
    const got = progressOf(seen);
    const ok = seen.response !== undefined && got.length === 3 && got.every((p, i) => p === i + 1);
    const calls = [lane('3 steps, result right after the 3rd', seen, audit)];
    if (ok)
      return result(
        name,
        'pass',
        'progress 1, 2, 3 then the result, each once, though the 3rd and the result left the upstream together',
        seenNumbers(seen),
        calls,
      );
    const gap =
      typeof audit === 'object' && audit.durationMs !== null && audit.notifications[2]
        ? ` (the 3rd ${(audit.durationMs - audit.notifications[2].sentAtMs).toFixed(1)} ms before the result)`
        : '';
    return result(
      name,
      'fail',
      `${LEG.client}: progress arrived as ${JSON.stringify(got)}${seen.response ? ' then the result' : ' and no result'}; expected [1,2,3] then the result. ${LEG.upstream}: ${upstreamSaid(audit)}${gap}. Last frame the client got: ${quote(frameWith(session, '"result"') ?? '(none)')}`,
      seenNumbers(seen),
      calls,
    );
  }),
);

/**
 * The progress values that reached the client after its cancel although the upstream never sent
 * them, or that the client had received already: what a gateway invented or repeated. Anything
 * else that arrives late was in flight, however late a loaded machine delivers it.
 */
export function unsentAfterCancel(seen: CallSeen, audit: AuditEntry): unknown[] {
  const had = new Set(progressOf(seen));
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

/** Cancellation judged by the upstream's own record, found by tag whatever the gateway did to ids. */
const cancellation = (label: string, id: string | number, by: { progress?: number; ms?: number }): BatteryProperty =>
  row(`cancellation (${label})`, 'light', (context, name) =>
    withSession(context, async (session) => {
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
      const got = progressOf(seen).length;
      if (seen.cancelAtMs === undefined && by.progress !== undefined && got < by.progress) {
        // The cancel waits for progress the gateway never delivered: that loss is the progress rows'
        // verdict, and failing here too would blame the gateway for a cancel it was never sent.
        return result(
          name,
          'n/a',
          `not judged: the cancel after progress ${by.progress} could not be sent, because only ${got} progress notification${got === 1 ? '' : 's'} reached the client (${seen.response ? 'then the result' : `no result: ${seen.error ?? 'stream closed'}`}); the progress rows report that loss, and the timed cancel row judges cancellation without progress. ${LEG.upstream}: ${upstreamSaid(audit)}`,
          numbers,
          calls,
        );
      }
      if (seen.cancelAtMs === undefined) {
        return result(
          name,
          'fail',
          `${LEG.client}: the call ended before the cancel could be sent: ${progressOf(seen).length} progress, ${seen.response ? 'a result' : `no result (${seen.error ?? 'stream closed'})`}. ${LEG.upstream}: ${upstreamSaid(audit)}`,
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
      const cancelEpoch = seen.startedEpochMs + seen.cancelAtMs;
      const upstreamEnd = audit.durationMs === null ? undefined : audit.startedAtEpochMs + audit.durationMs;
      if (!audit.cancelled && upstreamEnd !== undefined && upstreamEnd < cancelEpoch) {
        return result(
          name,
          'fail',
          `${LEG.client}: progress ${by.progress ?? ''} reached the client ${(cancelEpoch - upstreamEnd).toFixed(0)} ms after the upstream had finished (${LEG.upstream}: ${upstreamSaid(audit)}): the gateway held progress back, so the client's cancel ${sent} came too late to stop anything`,
          numbers,
          calls,
        );
      }
      if (!audit.cancelled) {
        return result(
          name,
          'fail',
          `${LEG.client}: sent ${sent} ${seen.cancelAtMs.toFixed(0)} ms into the call. ${LEG.upstream}: ${upstreamSaid(audit)}: the cancel never reached it under the id it knows (${JSON.stringify(audit.requestId)}), it ran ${audit.stepsCompleted} of 40 steps`,
          numbers,
          calls,
        );
      }
      // Notifications the upstream sent before the cancel reached it were in flight and may still
      // arrive, however late a loaded machine delivers them; a result after the cancel, or a
      // notification the upstream never sent (or the client already had), means the gateway kept
      // forwarding or invented messages.
      const late = seen.afterCancel.filter((a) => a.message.method === 'notifications/progress');
      const lateResult = seen.afterCancel.find((a) => !('method' in a.message));
      const foreign = unsentAfterCancel(seen, audit);
      const latency =
        audit.cancelledAtMs === null ? undefined : audit.startedAtEpochMs + audit.cancelledAtMs - cancelEpoch;
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
    }),
  );

/** Where progress arrives when a full client also holds the standalone GET stream open. */
const getStream = row('progress on the call stream (GET stream open)', 'light', (context, name) => {
  if (context.clientTransport !== 'http')
    return Promise.resolve(result(name, 'n/a', 'stdio has one stream; there is no standalone GET stream'));
  return withSession(context, async (session) => {
    const get = session.openGetStream();
    await sleep(100);
    const tag = newTag('get');
    // The result follows the last step by 30 ms: losing a notification next to the result is another row's concern.
    const seen = await session.call({
      tool: 'progress',
      arguments: { steps: 3, step_ms: 30 },
      id: 'check-get',
      token: tag,
    });
    await sleep(300);
    const onGet = get.messages.filter((m) => m.message.method === 'notifications/progress').length;
    const onCall = seen.progress.length;
    const where = onGet > 0 ? (onCall > 0 ? 'split' : 'GET only') : onCall > 0 ? 'call stream' : 'nowhere';
    const numbers = { onCall, onGet, getStatus: get.status, where };
    const calls = [lane('3 steps, GET open', seen)];
    const sent = ` (the upstream sends 3; GET stream: ${get.status ? `HTTP ${get.status}` : 'no response headers yet'})`;
    if (where === 'call stream')
      return result(
        name,
        'pass',
        `${onCall} of 3 notifications on the call's own stream, none on the GET stream${sent}`,
        numbers,
        calls,
      );
    if (where === 'nowhere')
      return result(
        name,
        'fail',
        `${LEG.client}: no notification on the call's stream nor on the standalone GET stream: they arrived nowhere${sent}`,
        numbers,
        calls,
      );
    return result(
      name,
      'fail',
      `${LEG.client}: ${onGet} notifications arrived on the standalone GET stream${where === 'split' ? `, ${onCall} on the call's stream` : " and none on the call's stream"}: a client that only POSTs misses them (the spec says they SHOULD go on the request's stream)${sent}. Quoted from the GET stream: ${quote(JSON.stringify(get.messages[0]?.message))}`,
      numbers,
      calls,
    );
  });
});

/** Many notifications in a few ms, or a client that reads slowly: nothing lost, nothing reordered. */
const inOrder = (
  label: string,
  steps: number,
  stepMs: number,
  load: BatteryLoad,
  slow?: { pauseMs: number; chars: number },
): BatteryProperty =>
  row(
    label,
    load,
    (context, name) =>
      withSession(context, async (session) => {
        const tag = newTag('order');
        const seen = await session.call({
          tool: 'progress_tight',
          arguments: { steps, step_ms: stepMs, tag, ...(slow && { message_chars: slow.chars }) },
          id: `check-${steps}`,
          token: tag,
          ...(slow && { readDelayMs: slow.pauseMs }),
        });
        const got = progressOf(seen);
        const audit = await auditRow(context, session, tag);
        const numbers = { ...seenNumbers(seen), expected: steps };
        const calls = [lane(label, seen, audit)];
        const firstBad = got.findIndex((p, i) => p !== i + 1);
        if (seen.response && got.length === steps && firstBad < 0) {
          return result(
            name,
            'pass',
            `${steps} of ${steps} notifications in order, then the result${slow ? ` (${((steps * slow.chars) / 1e6).toFixed(1)} MB; the client read nothing for the first ${slow.pauseMs} ms)` : ''}`,
            numbers,
            calls,
          );
        }
        const what =
          firstBad >= 0
            ? `notification ${firstBad + 1} carried progress ${JSON.stringify(got[firstBad])}`
            : `${steps - got.length} missing`;
        return result(
          name,
          'fail',
          `${LEG.client}: received ${got.length} of ${steps} notifications (${what})${seen.response ? '' : `, no result${seen.error ? ` (${seen.error})` : ''}`}. ${LEG.upstream}: ${upstreamSaid(audit)}`,
          numbers,
          calls,
        );
      }),
    slow !== undefined,
  );

/** Several interleaved calls on ONE session (one gateway process for a stdio client). */
const concurrency = row('concurrent calls without cross-talk', 'light', (context, name) =>
  withSession(context, async (session: CheckSession) => {
    const ids: (string | number)[] = ['check-c-0', 1_000_000_007, 'check-c-2', 2, 'check-c-4'];
    const tags = ids.map(() => newTag('concurrent'));
    const runs = await Promise.all(
      ids.map((id, i) =>
        session.call({
          tool: 'progress_tight',
          arguments: { steps: 5, step_ms: 25 + 5 * i, tag: tags[i] },
          id,
          token: tags[i] as string,
        }),
      ),
    );
    const problems: string[] = [];
    runs.forEach((run, i) => {
      const foreign = run.progress
        .map((p) => paramsOf(p.message).progressToken)
        .filter((t) => t !== tags[i] && tags.includes(t as string));
      if (foreign.length > 0) problems.push(`call ${i} received ${foreign.length} notifications of other calls`);
      if (run.response?.message.id !== ids[i])
        problems.push(
          `call ${i} (id ${JSON.stringify(ids[i])}) got response id ${JSON.stringify(run.response?.message.id)}${run.error ? ` (${run.error})` : ''}`,
        );
    });
    const via =
      context.clientTransport === 'stdio' ? 'interleaved on one stdin of one gateway process' : 'on one session';
    return result(
      name,
      problems.length === 0 ? 'pass' : 'fail',
      problems.length === 0
        ? `5 concurrent calls ${via}, string and numeric ids, each got only its own notifications and its own result`
        : `${LEG.client} (${via}): ${problems.join('; ')}`,
      { calls: 5, problems: problems.length },
      runs.map((run, i) => lane(`concurrent ${i}`, run)),
    );
  }),
);

/** A call that outlives common request timeouts, with progress every few seconds (the `--long` profile). */
export function longCall(totalMs: number, everyMs: number): BatteryProperty {
  const steps = Math.max(1, Math.ceil(totalMs / everyMs));
  return inOrder(
    `long call (${Math.round(totalMs / 1000)} s, progress every ${Math.round(everyMs / 1000)} s)`,
    steps,
    everyMs,
    'light',
  );
}

/** The rows that judge by the upstream's own record, through one gateway session each. */
export const STREAM_ROWS: readonly BatteryProperty[] = [
  multibyte(8, 65536),
  backToBack,
  cancellation('string id, after progress 2', 'check-cancel-é', { progress: 2 }),
  cancellation('large numeric id, after progress 2', 9_007_199_254_740_991, { progress: 2 }),
  cancellation('no progress needed, after 300 ms', 'check-cancel-timed', { ms: 300 }),
  getStream,
  inOrder('burst (200 notifications at once)', 200, 0, 'heavy'),
  inOrder('slow reader (100 x 16 KiB notifications)', 100, 0, 'heavy', { pauseMs: 500, chars: 16384 }),
  concurrency,
];
