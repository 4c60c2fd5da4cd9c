import { setTimeout as sleep } from 'node:timers/promises';
import type { Frame } from '../transcript/frame.js';
import { frameMessage, sseBlock } from '../transcript/frame-content.js';
import { isResponse, progressOf } from '../transcript/json-rpc.js';
import type { BatteryContext, BatteryLoad, BatteryProperty, PropertyResult } from './battery.js';
import { openCheckSession } from './check-session.js';
import { LEG, lane, newTag, quote, result, seenNumbers, thrown, withSession } from './row-kit.js';

/**
 * Rows for fault classes gateways shipped in 2025: each names what a gateway did wrong in the
 * field (SSE re-serialised without its `event:` field, a response delivered twice, progress routed
 * by token alone across clients).
 */
function row(
  name: string,
  load: BatteryLoad,
  run: (context: BatteryContext, name: string) => Promise<PropertyResult>,
): BatteryProperty {
  return { name, load, run: (context) => run(context, name).catch((error: unknown) => thrown(name, error)) };
}

const NO_SSE_ON_STDIO = 'stdio has no SSE stream';

/** The SSE frames of a session that carry a JSON-RPC message. */
const messageEvents = (frames: readonly Frame[]): Frame[] =>
  frames.filter((f) => f.channel === 'sse' && frameMessage(f) !== undefined);

/**
 * The upstream (the MCP SDK's transport) names every event `event: message`. A gateway that
 * re-serialises SSE without the field is read the same by a spec reader (no field means
 * "message"), but clients that listen for the named event hang at initialize.
 */
const eventField = row('SSE events keep their event: field', 'light', (context, name) => {
  if (context.clientTransport !== 'http') return Promise.resolve(result(name, 'n/a', NO_SSE_ON_STDIO));
  return withSession(context, async (session) => {
    const tag = newTag('event');
    const seen = await session.call({
      tool: 'progress',
      arguments: { steps: 2, step_ms: 10 },
      id: 'check-event',
      token: tag,
    });
    const events = messageEvents(session.frames());
    if (events.length === 0)
      return result(
        name,
        'n/a',
        'the gateway answered with JSON, not SSE: there are no event fields to keep',
        seenNumbers(seen),
      );
    const bare = events.filter((f) => sseBlock(f)?.event === undefined);
    const renamed = events.filter((f) => {
      const event = sseBlock(f)?.event;
      return event !== undefined && event !== 'message';
    });
    const numbers = { events: events.length, withoutEventField: bare.length, renamed: renamed.length };
    if (bare.length === 0 && renamed.length === 0)
      return result(
        name,
        'pass',
        `${events.length} of ${events.length} SSE events carry "event: message", as the upstream sent them`,
        numbers,
      );
    const example = bare[0] ?? renamed[0];
    return result(
      name,
      'fail',
      `${LEG.client}: ${bare.length} of ${events.length} SSE events arrived without an event: field${renamed.length > 0 ? ` and ${renamed.length} under another name` : ''} (the upstream sends "event: message" on every one): clients that listen for the named message event hang at initialize. First such event: ${quote(sseBlock(example as Frame)?.text ?? '')}`,
      numbers,
    );
  });
});

/** A response must arrive once: on the call's POST stream, not again on the standalone GET stream. */
const deliveredOnce = row('each response delivered once (GET stream open)', 'light', (context, name) => {
  if (context.clientTransport !== 'http')
    return Promise.resolve(result(name, 'n/a', 'stdio has one stream; there is no standalone GET stream'));
  return withSession(context, async (session) => {
    const get = session.openGetStream();
    await sleep(100);
    const id = 'check-once';
    const seen = await session.call({
      tool: 'progress',
      arguments: { steps: 2, step_ms: 20 },
      id,
      token: newTag('once'),
    });
    // A copy on the GET stream may come after the one on the call's stream.
    await sleep(300);
    const isOurs = (m: ReturnType<typeof frameMessage>): boolean => m !== undefined && isResponse(m) && m.id === id;
    const total = session
      .frames()
      .filter((f) => (f.channel === 'sse' || f.channel === 'json') && isOurs(frameMessage(f))).length;
    const onGet = get.messages.filter((m) => isOurs(m.message)).length;
    const numbers = { responses: total, onGet, onCall: total - onGet, getStatus: get.status };
    const calls = [lane('2 steps, GET open', seen)];
    if (total === 1 && onGet === 0)
      return result(
        name,
        'pass',
        `the result arrived once, on the call's own stream (GET stream: ${get.status ? `HTTP ${get.status}` : 'no response headers yet'})`,
        numbers,
        calls,
      );
    if (total === 0)
      return result(
        name,
        'fail',
        `${LEG.client}: the result never arrived${seen.error ? ` (${seen.error})` : ''}`,
        numbers,
        calls,
      );
    return result(
      name,
      'fail',
      `${LEG.client}: the result of request ${JSON.stringify(id)} arrived ${total} times: ${total - onGet} on the call's stream, ${onGet} on the standalone GET stream; a client sees one answer twice (or, matching by id, answers a later request with it)`,
      numbers,
      calls,
    );
  });
});

/**
 * Two clients (two sessions) that chose the same progress token at once: each must get only its
 * own progress. A gateway that routes progress by token alone sends one client's to the other.
 */
const sharedToken = row('two clients, one progress token: each gets its own', 'light', async (context, name) => {
  if (context.clientTransport !== 'http')
    return result(name, 'n/a', 'over stdio each client starts its own gateway process: two clients share no gateway');
  const token = 'check-shared-token';
  const [a, b] = await Promise.all([
    openCheckSession(context.gateway, context.timeoutMs, context.clientEra),
    openCheckSession(context.gateway, context.timeoutMs, context.clientEra),
  ]);
  try {
    const [seenA, seenB] = await Promise.all([
      a.call({ tool: 'progress', arguments: { steps: 3, step_ms: 40 }, id: 'check-shared-a', token }),
      b.call({ tool: 'progress', arguments: { steps: 5, step_ms: 40 }, id: 'check-shared-b', token }),
    ]);
    const totals = (seen: typeof seenA): unknown[] => seen.progress.map((p) => progressOf(p.message)?.total);
    const values = (seen: typeof seenA): unknown[] => seen.progress.map((p) => progressOf(p.message)?.progress);
    const own = (seen: typeof seenA, steps: number): boolean =>
      seen.response !== undefined &&
      seen.progress.length === steps &&
      totals(seen).every((t) => t === steps) &&
      values(seen).every((v, i) => v === i + 1);
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
      return result(
        name,
        'n/a',
        'no progress reached either client (the progress token rows report that loss), so whether it crosses clients cannot be told',
        numbers,
        calls,
      );
    const say = (label: string, seen: typeof seenA, steps: number): string =>
      `${label} (${steps} steps) got progress ${JSON.stringify(values(seen))} with totals ${JSON.stringify(totals(seen))}${seen.response ? '' : ' and no result'}`;
    return result(
      name,
      'fail',
      `${LEG.client}: ${say('client A', seenA, 3)}; ${say('client B', seenB, 5)}: each should get only its own, 1..steps with its own total (a gateway that routes progress by token alone crosses sessions)`,
      numbers,
      calls,
    );
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

/**
 * A gateway that rewrites a body (renumbers ids, renames tools) must send the new body's length. A
 * long string id makes any renumbering change the length; the check's upstream answers a body
 * shorter than its Content-Length with HTTP 400 after 2 s, naming both numbers, and one cut short
 * (a longer rewritten body) with a parse error.
 */
const contentLength = row('Content-Length matches a rewritten body', 'light', (context, name) => {
  if (context.upstreamTransport !== 'http')
    return Promise.resolve(result(name, 'n/a', 'a stdio upstream reads lines: there is no Content-Length to keep'));
  const refused = (said: string): PropertyResult =>
    result(name, 'fail', `${LEG.upstream}: the upstream refused the gateway's request: ${quote(said, 400)}`);
  return withSession(context, async (session) => {
    const id = `check-content-length-${'x'.repeat(40)}`;
    const seen = await session.call({ tool: 'progress', arguments: { steps: 1, step_ms: 1 }, id });
    if (seen.response !== undefined)
      return result(
        name,
        'pass',
        `a call with a ${id.length}-character id reached the upstream whole and its result came back (any rewritten body carried its own length)`,
        seenNumbers(seen),
      );
    const said = seen.error ?? 'no result and no error';
    if (/Content-Length/.test(said)) return refused(said);
    return result(
      name,
      'fail',
      `${LEG.client}: a call with a ${id.length}-character id got no result: ${quote(said, 300)}`,
      seenNumbers(seen),
    );
  }).catch((error: unknown) => {
    // The session's own initialize (a string id too) may meet the stale header first.
    const said = error instanceof Error ? error.message : String(error);
    if (/Content-Length/.test(said)) return refused(said.split('\n')[0] ?? said);
    throw error;
  });
});

/**
 * A security row: `Last-Event-ID` names an event of one session; a resumption request from another
 * session with that id must never replay the first session's events (a gateway whose event store
 * is keyed by event id alone leaks one user's stream to another).
 */
const resumeIsolation = row("Last-Event-ID never replays another session's events", 'light', async (context, name) => {
  if (context.clientTransport !== 'http') return result(name, 'n/a', 'stdio has no Last-Event-ID');
  const a = await openCheckSession(context.gateway, context.timeoutMs);
  const b = await openCheckSession(context.gateway, context.timeoutMs).catch(async (error: unknown) => {
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
      return result(
        name,
        'n/a',
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
});

/** The 2025 fault-class rows, in the order they run. */
export const FAULT_ROWS: readonly BatteryProperty[] = [
  eventField,
  deliveredOnce,
  sharedToken,
  contentLength,
  resumeIsolation,
];
