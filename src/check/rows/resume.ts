/**
 * The resume family: a dropped stream resumes with every event exactly once (2025: Last-Event-ID;
 * 2026-07-28: the call re-issued), and a resumption never replays another session's events.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Recording } from '../../record/record-call.js';
import { frameMessage, sseBlock } from '../../transcript/frame-content.js';
import { progressOf } from '../../transcript/json-rpc.js';
import { auditFor, describeAuditRow, rowsTagged } from '../audit.js';
import {
  callFailure,
  failedRecording,
  LEG,
  messageEvents,
  newTag,
  notExercised,
  openSession,
  quote,
  recordingLane,
  recordThrough,
  result,
  row,
} from '../kit.js';
import type { Need } from '../vocabulary.js';

const HTTP_CLIENT: Need<'http'> = { is: 'http', why: 'stdio has no Last-Event-ID' };

/** A 2025 client resumes a dropped stream with Last-Event-ID: every event exactly once, then the result. */
export const resume = row(
  'Last-Event-ID resume',
  'light',
  async (context, name) => {
    const probe = await recordThrough(context, {
      tool: 'progress',
      arguments: { steps: 1, step_ms: 1 },
      progressToken: 'probe',
      timeoutMs: context.timeoutMs,
    });
    if (!probe.frames.some((f) => f.channel === 'sse' && sseBlock(f)?.id)) {
      return notExercised(name, 'the gateway sends no SSE event ids, so it offers no resumption');
    }
    const received = await recordThrough(context, {
      tool: 'progress',
      arguments: { steps: 6, step_ms: 100 },
      progressToken: 'check-resume',
      dropAfter: 2,
      timeoutMs: context.timeoutMs,
    });
    const progress = received.outcome.progress.map((m) => progressOf(m)?.progress);
    const numbers = { notifications: progress.length, result: received.outcome.response !== undefined };
    const calls = [recordingLane('drop after 2, resume', received, await auditFor(context, 'check-resume'))];
    // Every event exactly once: progress 1, 2, 3... with no repeat and no hole, then the result. How
    // many arrive is the tokens property's concern.
    const ok = progress.length >= 3 && progress.every((p, i) => p === i + 1) && received.outcome.response !== undefined;
    return result(
      name,
      ok ? 'pass' : 'fail',
      ok
        ? `dropped after progress 2, resumed: progress 3-${progress.length} and the result arrived exactly once`
        : `after resuming, progress arrived as ${JSON.stringify(progress)}${received.outcome.response ? '' : ' and no result'}; expected 1, 2, 3... each once, then the result`,
      numbers,
      calls,
    );
  },
  {
    onError: failedRecording,
    needs: {
      clientTransport: HTTP_CLIENT,
      eras: {
        client: {
          is: 'legacy',
          why: 'the 2026-07-28 era has no Last-Event-ID resumption (a dropped call is re-issued: see the re-issue row)',
        },
      },
    },
  },
);

/**
 * A security row: `Last-Event-ID` names an event of one session; a resumption request from another
 * session with that id must never replay the first session's events (a gateway whose event store
 * is keyed by event id alone leaks one user's stream to another).
 */
export const resumeIsolation = row(
  "Last-Event-ID never replays another session's events",
  'light',
  async (context, name) => {
    const a = await openSession(context);
    const b = await openSession(context).catch(async (error: unknown) => {
      await a.close();
      throw error;
    });
    try {
      const token = newTag('isolation-a');
      const id = 'check-isolation-a';
      await a.call({ tool: 'progress', arguments: { steps: 3, step_ms: 10 }, id, token });
      const ids = [
        ...new Set(
          messageEvents(a.frames())
            .map((f) => sseBlock(f)?.id)
            .filter((e): e is string => !!e),
        ),
      ];
      if (ids.length === 0)
        return notExercised(
          name,
          'the gateway sends no SSE event ids, so there is no Last-Event-ID to take to another session',
        );
      const first = ids[0] as string;
      const get = b.openGetStream({ lastEventId: first });
      await sleep(500);
      const leaked = get.messages.filter((m) => {
        const text = JSON.stringify(m.message);
        return text.includes(token) || text.includes(id);
      });
      const numbers = { statusB: get.status, receivedB: get.messages.length, leaked: leaked.length };
      if (leaked.length === 0)
        return result(
          name,
          'pass',
          `session B resumed with Last-Event-ID ${JSON.stringify(first)} of session A's call: ${get.status ? `HTTP ${get.status}` : 'no response headers'}, ${get.messages.length} messages, none of session A's`,
          numbers,
        );
      return result(
        name,
        'fail',
        `${LEG.client}: session B sent Last-Event-ID ${JSON.stringify(first)} (an event of session A) and received ${leaked.length} of session A's messages: one client's stream leaks to another. First: ${quote(JSON.stringify(leaked[0]?.message))}`,
        numbers,
      );
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  },
  {
    needs: {
      clientTransport: HTTP_CLIENT,
      eras: { client: { is: 'legacy', why: 'the 2026-07-28 era has neither sessions nor Last-Event-ID resumption' } },
    },
  },
);

/** The id of the last `tools/call` the client sent (the re-issue's, after a drop). */
function lastCallId(recording: Recording): unknown {
  const calls = recording.frames
    .filter((f) => f.dir === 'client->server')
    .map(frameMessage)
    .filter((m) => m?.method === 'tools/call');
  return calls.at(-1)?.id;
}

const REISSUE_ROW = 're-issue after a drop (2026-07-28)';
const REISSUE_STEPS = 5;

/** After a mid-call drop the modern client re-issues the call with a new id: no stale frames, one result, under the new id. */
export const reissue = row(
  REISSUE_ROW,
  'light',
  async (context) => {
    const tag = newTag('reissue');
    let recording: Recording;
    try {
      recording = await recordThrough(context, {
        tool: 'progress_tight',
        arguments: { steps: REISSUE_STEPS, step_ms: 100, tag },
        progressToken: tag,
        dropAfter: 2,
        era: 'modern',
        timeoutMs: context.timeoutMs,
      });
    } catch (error) {
      return result(REISSUE_ROW, 'fail', `${LEG.client}: the re-issued call failed: ${callFailure(context, error)}`);
    }
    const progress = recording.outcome.progress.map((m) => progressOf(m)?.progress);
    const fresh = progress.slice(2);
    const newId = lastCallId(recording);
    const response = recording.outcome.response;
    const rows = await rowsTagged(context, tag, 1000);
    const upstreamSide = `${LEG.upstream}: ${rows.length} call(s) tagged: ${rows.map(describeAuditRow).join('; ') || 'none'}`;
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
  {
    era: 'modern',
    needs: {
      eras: {
        client: {
          is: 'modern',
          why: 'a 2025-11-25 client resumes a dropped stream with Last-Event-ID (the Last-Event-ID resume row); it does not re-issue',
        },
      },
    },
  },
);
