/** The back-to-back family: a notification written together with the result still arrives, before it. */
import { auditRow, upstreamSaid } from '../audit.js';
import { frameWith, LEG, lane, newTag, progressValues, quote, result, row, seenNumbers, withSession } from '../kit.js';

/** The final progress notification written back-to-back with the result must still arrive, before it. */
export const backToBack = row('final progress back-to-back with the result', 'light', (context, name) =>
  withSession(context, async (session) => {
    const tag = newTag('tight');
    const seen = await session.call({
      tool: 'progress_tight',
      arguments: { steps: 3, step_ms: 30, tag },
      id: 'check-tight',
      token: tag,
    });
    const audit = await auditRow(context, session, tag);
    const got = progressValues(seen);
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
