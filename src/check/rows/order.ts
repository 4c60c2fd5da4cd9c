/** The order family: many notifications in a few ms, a slow reader, a long call: nothing lost, nothing reordered. */
import { auditRow, upstreamSaid } from '../audit.js';
import { LEG, lane, newTag, progressValues, result, row, seenNumbers, withSession } from '../kit.js';
import type { BatteryLoad, BatteryProperty } from '../vocabulary.js';

/** Many notifications in a few ms, or a client that reads slowly: nothing lost, nothing reordered. */
export const inOrder = (
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
        const got = progressValues(seen);
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
    { waits: slow !== undefined },
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
