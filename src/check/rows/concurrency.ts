/** The concurrency family: calls at once on one session, or from two clients, each get only their own messages. */
import { counted } from '../../transcript/counted.js';
import { paramsOf, progressOf } from '../../transcript/json-rpc.js';
import type { CheckSession } from '../check-session.js';
import { LEG, lane, newTag, notExercised, progressValues, result, row, withSession, withSessions } from '../kit.js';

/** Several interleaved calls on ONE session (one gateway process for a stdio client). */
export const concurrency = row('concurrent calls without cross-talk', 'light', (context, name) =>
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
      if (foreign.length > 0)
        problems.push(`call ${i} received ${counted(foreign.length, 'notification')} of other calls`);
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

/**
 * Two clients (two sessions) that chose the same progress token at once: each must get only its
 * own progress. A gateway that routes progress by token alone sends one client's to the other.
 */
export const sharedToken = row(
  'two clients, one progress token: each gets its own',
  'light',
  async (context, name) => {
    const token = 'check-shared-token';
    return withSessions(context, async (a, b) => {
      const [seenA, seenB] = await Promise.all([
        a.call({ tool: 'progress', arguments: { steps: 3, step_ms: 40 }, id: 'check-shared-a', token }),
        b.call({ tool: 'progress', arguments: { steps: 5, step_ms: 40 }, id: 'check-shared-b', token }),
      ]);
      const totals = (seen: typeof seenA): unknown[] => seen.progress.map((p) => progressOf(p.message)?.total);
      const own = (seen: typeof seenA, steps: number): boolean =>
        seen.response !== undefined &&
        seen.progress.length === steps &&
        totals(seen).every((t) => t === steps) &&
        progressValues(seen).every((v, i) => v === i + 1);
      const numbers = { clientA: seenA.progress.length, clientB: seenB.progress.length };
      const calls = [lane('client A, 3 steps', seenA), lane('client B, 5 steps', seenB)];
      if (own(seenA, 3) && own(seenB, 5))
        return result(
          name,
          'pass',
          `two sessions with token ${JSON.stringify(token)} at once: A got its 3 notifications (total 3), B its 5 (total 5), each then its result`,
          numbers,
          calls,
        );
      if (seenA.progress.length === 0 && seenB.progress.length === 0 && seenA.response && seenB.response)
        return notExercised(
          name,
          'no progress reached either client (the progress token rows report that loss), so whether it crosses clients cannot be told',
          numbers,
          calls,
        );
      const say = (label: string, seen: typeof seenA, steps: number): string =>
        `${label} (${steps} steps) got progress ${JSON.stringify(progressValues(seen))} with totals ${JSON.stringify(totals(seen))}${seen.response ? '' : ' and no result'}`;
      return result(
        name,
        'fail',
        `${LEG.client}: ${say('client A', seenA, 3)}; ${say('client B', seenB, 5)}: each should get only its own, 1..steps with its own total (a gateway that routes progress by token alone crosses sessions)`,
        numbers,
        calls,
      );
    });
  },
  {
    needs: {
      clientTransport: {
        is: 'http',
        why: 'over stdio each client starts its own gateway process: two clients share no gateway',
      },
    },
  },
);
