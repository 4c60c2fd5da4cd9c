import type { AuditEntry } from '../../server/audit-log.js';
import { memberOf } from '../../transcript/json-object.js';
import { errorOf } from '../../transcript/json-rpc.js';
import { callFailure, LEG, newTag, notExercised, quote, result, row, withSession } from '../kit.js';
import type { BatteryContext } from '../vocabulary.js';

/** The row's name. */
export const AFFINITY_ROW = 'session affinity across two upstream replicas';

const SESSIONS = 4;
const CALLS = 3;

/** How to give the check its second replica, for the n/a evidence and the docs. */
const HOW_TO_ENABLE =
  "name both replicas in the gateway command, {upstream} and {upstream2} (e.g. --gateway 'my-balancer --backend {upstream} --backend {upstream2} --port {port}'), or with --gateway-url give --upstream2-port N beside --upstream-port";

/** What the client saw of one call of the row: its tag, and the failure it got, if any. */
interface ClientCall {
  readonly tag: string;
  readonly failure?: string;
}

/** One client session of the row: its calls, or why it could not be opened. */
interface ClientSession {
  readonly calls: readonly ClientCall[];
  readonly failure?: string;
}

async function runSession(context: BatteryContext, base: string, index: number): Promise<ClientSession> {
  const calls: ClientCall[] = [];
  try {
    await withSession(context, async (session) => {
      for (let n = 1; n <= CALLS; n++) {
        const tag = `${base}-s${index}-c${n}`;
        const seen = await session.call({
          tool: 'progress_tight',
          arguments: { steps: 1, step_ms: 0, tag },
          id: `affinity-${n}`,
        });
        const error = seen.response ? errorOf(seen.response.message) : undefined;
        const failure = seen.error ?? (error ? `error ${error.code} ${error.message}` : undefined);
        calls.push({ tag, ...(failure !== undefined && { failure }) });
      }
    });
    return { calls };
  } catch (error) {
    return { calls, failure: callFailure(context, error) };
  }
}

/** A refused call's HTTP status and JSON-RPC error message, without the recorder's advice; else the text as it is. */
function brief(failure: string): string {
  const status = /HTTP (\d{3})/.exec(failure)?.[1];
  const message = /"message":"((?:[^"\\]|\\.)*)"/.exec(failure)?.[1];
  if (status === undefined) return failure;
  return message === undefined
    ? `HTTP ${status}`
    : `HTTP ${status}, ${quote(JSON.parse(`"${message}"`) as string, 60)}`;
}

/** Where a tagged call landed: replica 1 or 2 and the upstream session, or nowhere. */
function placeOf(
  tag: string,
  audits: readonly AuditEntry[][],
): { replica: number; session: string | null } | undefined {
  for (const [i, rows] of audits.entries()) {
    const row = rows.find((r) => memberOf(r.arguments, 'tag') === tag);
    if (row) return { replica: i + 1, session: row.sessionId };
  }
  return undefined;
}

/**
 * Several 2025 sessions through a gateway in front of two upstream replicas with separate session
 * state: every call of one session must reach the replica (and the upstream session) its first
 * call reached, as the replicas' audit logs show, and no call may come back "session not found".
 */
export const sessionAffinity = row(
  AFFINITY_ROW,
  'light',
  async (context) => {
    const base = newTag('affinity');
    const sessions = await Promise.all(Array.from({ length: SESSIONS }, (_, i) => runSession(context, base, i + 1)));
    const [first, second] = context.replicas ?? [async () => [], async () => []];
    const audits = await Promise.all([first().catch(() => []), second().catch(() => [])]);
    const problems: string[] = [];
    const homes = [0, 0];
    for (const [i, s] of sessions.entries()) {
      const name = `session ${i + 1}`;
      if (s.failure !== undefined && s.calls.length === 0) {
        problems.push(`${LEG.client}: ${name} could not be opened: ${s.failure}`);
        continue;
      }
      const places = s.calls.map((c) => placeOf(c.tag, audits));
      // The session's home: where the first of its calls that ran at all ran.
      const home = places.find((p) => p !== undefined);
      if (home) homes[home.replica - 1] = (homes[home.replica - 1] ?? 0) + 1;
      for (const [n, c] of s.calls.entries()) {
        const at = places[n];
        const wrong = !at || !home || at.replica !== home.replica || at.session !== home.session;
        if (c.failure === undefined && !wrong) continue;
        const where = at ? `reached replica ${at.replica} (session ${at.session})` : 'ran on neither replica';
        const refused = c.failure !== undefined ? ` (${LEG.client}: ${brief(c.failure)})` : '';
        const homeText = home
          ? `; the session's other calls ran on replica ${home.replica} (session ${home.session})`
          : '';
        problems.push(`${name} call ${n + 1}: ${LEG.upstream}: ${where}${refused}${homeText}`);
      }
      if (s.failure !== undefined) problems.push(`${LEG.client}: ${name} broke off: ${s.failure}`);
    }
    const numbers = {
      sessions: SESSIONS,
      callsPerSession: CALLS,
      onReplica1: homes[0] ?? 0,
      onReplica2: homes[1] ?? 0,
    };
    if (problems.length > 0) {
      const shown = problems.slice(0, 4).join('; ');
      const more = problems.length > 4 ? `; and ${problems.length - 4} more` : '';
      return result(AFFINITY_ROW, 'fail', `${shown}${more}`, { ...numbers, problems: problems.length });
    }
    if (homes[0] === 0 || homes[1] === 0) {
      return notExercised(
        AFFINITY_ROW,
        `affinity was not exercised: all ${SESSIONS} sessions landed on replica ${homes[0] === 0 ? 2 : 1} (sessions on replica 1: ${homes[0]}, on replica 2: ${homes[1]}), so no call could reach a replica that lacks its session; ${LEG.client}: no call failed. A gateway that spreads sessions over both replicas is judged here`,
        numbers,
      );
    }
    return result(
      AFFINITY_ROW,
      'pass',
      `${LEG.upstream}: ${SESSIONS} sessions x ${CALLS} calls, each session's calls all reached one replica and one upstream session (sessions on replica 1: ${homes[0]}, on replica 2: ${homes[1]}); ${LEG.client}: no call failed`,
      numbers,
    );
  },
  {
    needs: {
      eras: {
        // 2026-07-28 has no sessions: its affinity (tasks/* pinned by Mcp-Name) is the task rows' duty.
        client: {
          is: 'legacy',
          why: 'the 2026-07-28 era has no sessions: its affinity (every tasks/* request pinned by Mcp-Name: <taskId> to the replica that created the task) is judged by the task rows, "tasks: tasks/get and tasks/cancel reach the task" above all, with {upstream2} in the gateway command; run this row with --client-era legacy',
        },
        upstream: {
          is: 'legacy',
          why: 'the 2026-07-28 upstream keeps no session state, so no replica can lose a 2025 session; run the row with --upstream-era legacy',
        },
      },
      upstreamTransport: { is: 'http', why: 'a stdio upstream is a process of the gateway, not a replica behind it' },
      replicas: { is: 2, why: `needs two upstream replicas: ${HOW_TO_ENABLE}` },
    },
  },
);
