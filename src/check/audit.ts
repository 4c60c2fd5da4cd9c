/**
 * The one reader of the upstream's audit log: how the check gets the rows (in process, through the
 * gateway with the `audit_log` tool, from the stdio upstreams' audit file) and how a row finds the
 * upstream's record of its call (by tag, by progress token), and how evidence quotes it.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { type RecordTarget, recordCall } from '../record/record-call.js';
import type { AuditEntry } from '../server/audit-log.js';
import type { Era } from '../transcript/frame.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { memberOf } from '../transcript/json-object.js';
import { resultOf } from '../transcript/json-rpc.js';
import type { BatteryContext } from './vocabulary.js';

/** The rows an `audit_log` tool result carries (`structuredContent.entries`); `[]` when it carries none. */
export function auditEntriesOf(response: JsonRpcMessage | undefined): AuditEntry[] {
  const entries = memberOf(memberOf(resultOf(response), 'structuredContent'), 'entries');
  // The rows come from the reference server's own audit_log tool, which writes AuditEntry objects.
  return Array.isArray(entries) ? (entries as AuditEntry[]) : [];
}

/** Reads the upstream's audit log through the gateway, with the `audit_log` tool, in the client's era. */
async function auditThrough(target: RecordTarget, timeoutMs: number, era: Era): Promise<AuditEntry[]> {
  const recording = await recordCall(target, { tool: 'audit_log', timeoutMs, era });
  return auditEntriesOf(recording.outcome.response);
}

/**
 * The rows stdio upstreams appended to `path` as their calls ended (`serve --stdio --audit-file`),
 * from every process that shares it: each row is written once, when its call ends. A line cut short
 * by a process killed mid-write is skipped.
 */
function auditFileEntries(path: string): AuditEntry[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  const rows: AuditEntry[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      rows.push((JSON.parse(line) as { entry: AuditEntry }).entry);
    } catch {
      // Cut short: the rest of the file still counts.
    }
  }
  return rows;
}

/**
 * The audit of a stdio upstream: what the process behind the gateway says over the wire, and what
 * every process wrote to the audit file (a gateway may start one upstream per session, and a new
 * session then reaches a process that saw none of the calls). Rows both give count once, the live
 * one kept; oldest call first.
 */
export async function stdioAudit(
  target: RecordTarget,
  timeoutMs: number,
  file: string,
  era: Era = 'legacy',
): Promise<AuditEntry[]> {
  const live = await auditThrough(target, timeoutMs, era).catch(() => [] as AuditEntry[]);
  const key = (e: AuditEntry): string => `${e.startedAtEpochMs}|${typeof e.requestId}:${e.requestId}`;
  const seen = new Set(live.map(key));
  return [...live, ...auditFileEntries(file).filter((e) => !seen.has(key(e)))].sort(
    (a, b) => a.startedAtEpochMs - b.startedAtEpochMs,
  );
}

/** A session on the gateway that can read the upstream's audit log through it (a check session). */
export interface AuditThroughSession {
  auditThrough(): Promise<AuditEntry[]>;
}

/** The audit log the session rows read: in process for an HTTP upstream, through the session for a stdio one. */
async function readAudit(context: BatteryContext, session: AuditThroughSession): Promise<AuditEntry[]> {
  if (context.upstreamTransport === 'stdio') return session.auditThrough().catch(() => []);
  return context.audit().catch(() => []);
}

/** The upstream's last row of a call with progress token `token`, if it has one. */
export async function auditFor(context: BatteryContext, token: unknown): Promise<AuditEntry | undefined> {
  const entries = await context.audit().catch(() => [] as AuditEntry[]);
  return entries.filter((e) => e.progressToken === token).at(-1);
}

/**
 * The upstream's row of the call tagged `tag`, once it has ended (or after `waitMs`), or a sentence
 * saying why there is none.
 */
export async function auditRow(
  context: BatteryContext,
  session: AuditThroughSession,
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
        : `the upstream's audit log (${entries.length} rows) has no call with arguments.tag ${JSON.stringify(tag)}: the call never reached the tool (not forwarded, its arguments not forwarded verbatim, or refused by the upstream before the tool ran)`;
    }
    await sleep(25);
  }
}

/** The upstream's audit rows of the calls tagged `tag` (two for a re-issued call), once at least `atLeast` exist and all have ended, or `waitMs` passed. */
export async function rowsTagged(
  context: BatteryContext,
  tag: string,
  waitMs: number,
  atLeast = 1,
): Promise<AuditEntry[]> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const rows = (await context.audit().catch(() => [] as AuditEntry[])).filter(
      (e) => memberOf(e.arguments, 'tag') === tag,
    );
    if ((rows.length >= atLeast && rows.every((r) => r.outcome !== 'running')) || Date.now() > deadline) return rows;
    await sleep(25);
  }
}

/** Epoch ms of each progress notification the upstream sent for the call of `row`. */
export function upstreamSentMs(row: AuditEntry | undefined): number[] {
  return row ? row.notifications.map((n) => row.startedAtEpochMs + n.sentAtMs) : [];
}

/** The session rows' evidence of what the upstream received and did (or why its row is missing). */
export function upstreamSaid(row: AuditEntry | string): string {
  return typeof row === 'string'
    ? row
    : `the upstream (audit row ${row.seq}) received request id ${JSON.stringify(row.requestId)} and token ${JSON.stringify(row.progressToken)}, sent ${row.notifications.length} notifications, outcome ${row.outcome}${row.cancelled ? `, cancelled at ${row.cancelledAtMs?.toFixed(0)} ms` : ''}`;
}

/** The era rows' evidence of one audit row: its id, outcome, steps, progress and any cancel. */
export function describeAuditRow(row: AuditEntry): string {
  return `id ${JSON.stringify(row.requestId)}: ${row.outcome} after ${row.stepsCompleted} steps, ${row.notifications.length} progress sent${row.cancelled ? `, cancelled (${row.cancelReason ?? 'no reason'}) at ${row.cancelledAtMs?.toFixed(0)} ms` : ''}`;
}
