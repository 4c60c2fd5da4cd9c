import { setTimeout as sleep } from 'node:timers/promises';
import { isGoldenError } from '../errors.js';
import type { AuditEntry } from '../server/audit-log.js';
import { memberOf } from '../transcript/json-object.js';
import type { BatteryContext, PropertyResult, TimelineCall } from './battery.js';
import type { CallSeen, CheckSession } from './check-session.js';
import { openCheckSession } from './check-session.js';

/** The two legs evidence is quoted from. */
export const LEG = { client: 'client→gateway', upstream: 'gateway→upstream' } as const;

let serial = 0;
/** A tag unique in this process, put into a call's arguments so the upstream's audit row can be found. */
export function newTag(row: string): string {
  serial += 1;
  return `check-${row}-${process.pid}-${serial}`;
}

/** Shortens raw wire text for evidence: the first `max` characters, JSON-quoted. */
export function quote(text: string, max = 140): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

/** The raw text of the last frame of the client→gateway leg that contains `needle`. */
export function frameWith(session: CheckSession, needle: string): string | undefined {
  return session
    .frames()
    .filter((f) => f.channel !== 'read' && typeof f.raw === 'string' && f.raw.includes(needle))
    .at(-1)?.raw as string | undefined;
}

/** The audit log the rows read: in process for an HTTP upstream, through the session for a stdio one. */
export async function readAudit(context: BatteryContext, session: CheckSession): Promise<AuditEntry[]> {
  if (context.upstreamTransport === 'stdio') return session.auditThrough().catch(() => []);
  return context.audit().catch(() => []);
}

/**
 * The upstream's row of the call tagged `tag`, once it has ended (or after `waitMs`), or a sentence
 * saying why there is none.
 */
export async function auditRow(
  context: BatteryContext,
  session: CheckSession,
  tag: string,
  waitMs = 2000,
): Promise<AuditEntry | string> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const entries = await readAudit(context, session);
    const row = entries.find((e) => memberOf(e.arguments, 'tag') === tag);
    if (row && (row.outcome !== 'running' || Date.now() > deadline)) return row;
    if (!row && Date.now() > deadline) {
      return entries.length === 0
        ? `the upstream's audit log could not be read through the gateway (${context.upstreamTransport} upstream, read with the audit_log tool)`
        : `the upstream's audit log (${entries.length} rows) has no call with arguments.tag ${JSON.stringify(tag)}: the gateway did not forward the call's arguments verbatim`;
    }
    await sleep(25);
  }
}

/** One session on the gateway for the length of `body`, closed afterwards whatever happens. */
export async function withSession<T>(context: BatteryContext, body: (s: CheckSession) => Promise<T>): Promise<T> {
  const session = await openCheckSession(context.gateway, context.timeoutMs, context.clientEra);
  try {
    return await body(session);
  } finally {
    await session.close();
  }
}

/** The numbers every row carries about what the client saw. */
export function seenNumbers(seen: CallSeen): Record<string, number | boolean> {
  return { progressReceived: seen.progress.length, result: seen.response !== undefined };
}

/** A timeline lane for a call made on a session. */
export function lane(label: string, seen: CallSeen, row?: AuditEntry | string): TimelineCall {
  const upstream = typeof row === 'object' ? row : undefined;
  return {
    label,
    upstreamSentMs: upstream ? upstream.notifications.map((n) => upstream.startedAtEpochMs + n.sentAtMs) : [],
    clientReceivedMs: seen.progress.map((p) => seen.startedEpochMs + p.atMs),
    ...(seen.response && { clientResultMs: seen.startedEpochMs + seen.response.atMs }),
  };
}

/** A row result. */
export function result(
  property: string,
  verdict: PropertyResult['verdict'],
  evidence: string,
  numbers: PropertyResult['numbers'] = {},
  calls: TimelineCall[] = [],
): PropertyResult {
  return { property, verdict, evidence, numbers, calls };
}

/** A row that threw: a timeout or a refused call is a failure with its reason. */
export function thrown(property: string, error: unknown): PropertyResult {
  const text = error instanceof Error ? error.message : String(error);
  const why = isGoldenError(error, 'E_TIMEOUT') ? `the gateway did not answer in time: ${text}` : text;
  return result(property, 'fail', `${LEG.client}: ${why.split('\n')[0] ?? why}`);
}
