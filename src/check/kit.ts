/**
 * The one kit for writing a row of the battery: declare it ({@link row}), record or call through
 * the gateway ({@link pair}, {@link withSession}), draw its calls on the timeline ({@link lane},
 * {@link recordingLane}), and return its verdict ({@link result}, {@link fromInvariant}). A row that
 * throws fails with the reason ({@link thrown}, {@link failedRecording}).
 */
import { describeError, isGoldenError } from '../errors.js';
import type { InvariantResult } from '../invariants/invariants.js';
import { type Recording, recordCall } from '../record/record-call.js';
import type { Scenario } from '../record/scenario.js';
import type { AuditEntry } from '../server/audit-log.js';
import type { Era, Frame } from '../transcript/frame.js';
import { frameMessage } from '../transcript/frame-content.js';
import { progressOf } from '../transcript/json-rpc.js';
import { readToolCall } from '../transcript/read-calls.js';
import { upstreamSentMs } from './audit.js';
import { type CallSeen, type CheckSession, openCheckSession } from './check-session.js';
import type {
  BatteryContext,
  BatteryLoad,
  BatteryProperty,
  PropertyResult,
  RowNeeds,
  TimelineCall,
} from './vocabulary.js';

/** The two legs evidence is quoted from. */
export const LEG = { client: 'client→gateway', upstream: 'gateway→upstream' } as const;

/** How a row is declared beside its name, load and body (see {@link row}). */
export interface RowOptions {
  /** See {@link BatteryProperty.waits}. */
  readonly waits?: boolean;
  /** See {@link BatteryProperty.era}. */
  readonly era?: 'modern';
  /** See {@link BatteryProperty.needs}. */
  readonly needs?: RowNeeds;
  /** The result of a row that threw. @default thrown */
  readonly onError?: (property: string, error: unknown) => PropertyResult;
}

/**
 * Declares a row: `run` gets the context and the row's name; whatever it throws becomes a failing
 * result, except a gateway that did not get ready in time ({@link notReady}): that row is inconclusive.
 */
export function row(
  name: string,
  load: BatteryLoad,
  run: (context: BatteryContext, name: string) => Promise<PropertyResult>,
  { waits, era, needs, onError = thrown }: RowOptions = {},
): BatteryProperty {
  return {
    name,
    load,
    ...(waits !== undefined && { waits }),
    ...(era !== undefined && { era }),
    ...(needs !== undefined && { needs }),
    run: (context) =>
      run(context, name).catch((error: unknown) =>
        notReady(context, error) ? didNotStart(name, context, error) : onError(name, error),
      ),
  };
}

/**
 * The sentence of the first need of `property` the check runs without (the row is then n/a), or
 * `undefined` when every need is met. Only the runner asks: a row never decides n/a by its context.
 */
export function unmetNeed(property: Pick<BatteryProperty, 'needs'>, context: BatteryContext): string | undefined {
  const needs = property.needs;
  if (!needs) return undefined;
  const [client, upstream] = [clientEraOf(context), upstreamEraOf(context)];
  const unmet = [
    needs.clientTransport && needs.clientTransport.is !== context.clientTransport && needs.clientTransport,
    needs.upstreamTransport && needs.upstreamTransport.is !== context.upstreamTransport && needs.upstreamTransport,
    needs.eras?.client && needs.eras.client.is !== client && needs.eras.client,
    needs.eras?.upstream && needs.eras.upstream.is !== upstream && needs.eras.upstream,
    needs.eras?.either && needs.eras.either.is !== client && needs.eras.either.is !== upstream && needs.eras.either,
    needs.replicas && !context.replicas && needs.replicas,
  ].find((need) => need);
  return unmet ? unmet.why : undefined;
}

/** The first request of a session: the one a freshly started process answers once it is ready. */
const FIRST_REQUEST = /^Waiting for the answer to (initialize|server\/discover)\b/;

/**
 * Whether `error` is the gateway not getting ready: no answer within the timeout to the first
 * request of a session, where each session starts a process (a stdio client starts a gateway per
 * session; a gateway with a stdio upstream starts one per session). That is setup, not streaming:
 * a slow start (`npx -y` on a cold cache) says nothing about what the gateway does to a stream.
 */
export function notReady(context: BatteryContext, error: unknown): boolean {
  return spawnsProcesses(context) && isGoldenError(error, 'E_TIMEOUT') && FIRST_REQUEST.test(error.message);
}

/** The evidence of a row whose gateway did not start in time. */
export const DID_NOT_START = 'the gateway did not start in time';

/** The inconclusive result of a row whose gateway process did not answer its first request within the timeout. */
function didNotStart(name: string, context: BatteryContext, error: unknown): PropertyResult {
  return result(
    name,
    'inconclusive',
    `${DID_NOT_START}: ${firstLine(error)} (each session starts a process here; a start is not judged: raise --timeout, now ${context.timeoutMs} ms, or install the gateway instead of running it with npx -y)`,
  );
}

/**
 * The first line of a call's error for a row's evidence; a gateway that did not get ready is
 * thrown on instead, so that {@link row} makes the row inconclusive rather than failed.
 */
export function callFailure(context: BatteryContext, error: unknown): string {
  if (notReady(context, error)) throw error;
  return firstLine(error);
}

/** Ms from a recording's (or a session's) start to the first thing the gateway sent: how long it took to get ready. */
function readyAfterMs(frames: readonly Frame[]): number | undefined {
  const first = frames.find((f) => f.dir === 'server->client');
  return first === undefined ? undefined : first.t / 1000;
}

/** Tells the runner how long a session's gateway (or upstream) process took to answer its first request. */
function noteStart(context: BatteryContext, frames: readonly Frame[]): void {
  if (!spawnsProcesses(context)) return;
  const ms = readyAfterMs(frames);
  if (ms !== undefined) context.onStarted?.(ms);
}

/** Records `scenario` through the gateway in the client's era, within the timeout (the scenario may say otherwise). */
export async function recordThrough(context: BatteryContext, scenario: Scenario): Promise<Recording> {
  const recording = await recordCall(context.gateway, {
    era: clientEraOf(context),
    timeoutMs: context.timeoutMs,
    ...scenario,
  });
  noteStart(context, recording.frames);
  return recording;
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

/**
 * The result of a row that ran and found nothing to judge (no progress reached the client, the
 * gateway sends no event ids, every session landed on one replica): n/a with what was seen. What a
 * row needs to have a meaning at all is declared on the row (`needs`), never decided in it.
 */
export function notExercised(
  property: string,
  why: string,
  numbers: PropertyResult['numbers'] = {},
  calls: TimelineCall[] = [],
): PropertyResult {
  return result(property, 'n/a', why, numbers, calls);
}

/** A row result judged by one of the invariants. */
export function fromInvariant(property: string, judged: InvariantResult, calls: TimelineCall[]): PropertyResult {
  return result(property, judged.pass ? 'pass' : 'fail', judged.evidence, judged.numbers, calls);
}

const timedOut = (error: unknown, text: string): string =>
  isGoldenError(error, 'E_TIMEOUT') ? `the gateway did not answer in time: ${text}` : text;

/** A row that threw on the client→gateway leg: a timeout or a refused call is a failure with its reason. */
export function thrown(property: string, error: unknown): PropertyResult {
  const why = timedOut(error, error instanceof Error ? error.message : String(error));
  return result(property, 'fail', `${LEG.client}: ${why.split('\n')[0] ?? why}`);
}

/**
 * A row that recorded a reference call too, and threw: either leg may have failed, so no leg is
 * named, and the cause is kept (ECONNRESET, EPIPE, the timeout): "fetch failed" alone says nothing.
 */
export function failedRecording(property: string, error: unknown): PropertyResult {
  const why = timedOut(error, describeError(error));
  return result(property, 'fail', why.split('\n')[0] ?? why);
}

/** The first line of an error's text, causes included. */
export function firstLine(error: unknown): string {
  return describeError(error).split('\n')[0] ?? '';
}

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

/** The era the check's client speaks to the gateway. */
export const clientEraOf = (context: BatteryContext): Era => context.clientEra ?? 'legacy';
/**
 * The era the reference upstream speaks to this gateway: its own, or where it serves both (`dual`),
 * the one the gateway was seen speaking to it (a bridge may pick either), else the client's, which a
 * gateway that passes requests through keeps.
 */
export const upstreamEraOf = (context: BatteryContext): Era =>
  context.upstreamEra === 'dual' ? (context.upstreamLegEra ?? clientEraOf(context)) : (context.upstreamEra ?? 'legacy');

/** The era of the last call of `tool` in an upstream's audit: 2026-07-28 where it carried `Mcp-*` headers; `undefined` without one. */
export function eraInAudit(entries: readonly AuditEntry[], tool: string): Era | undefined {
  const call = entries.findLast((entry) => entry.tool === tool);
  return call && (call.mcpHeaders ? 'modern' : 'legacy');
}

/** `client modern, upstream legacy`: how the evidence names a combination. */
export function erasLabel(context: BatteryContext): string {
  return `client ${clientEraOf(context)}, upstream ${context.upstreamEra ?? 'legacy'}`;
}

/** True when every recording starts a process (a stdio client or a stdio upstream). */
export function spawnsProcesses(context: Pick<BatteryContext, 'clientTransport' | 'upstreamTransport'>): boolean {
  return context.clientTransport === 'stdio' || context.upstreamTransport === 'stdio';
}

/**
 * Records `scenario` directly (reference) and through the gateway, one after the other: the
 * upstream's audit row of the gateway's call is then the last one with the call's token.
 */
export async function pair(
  context: BatteryContext,
  scenario: Scenario,
): Promise<{ received: Recording; reference: Recording }> {
  const timed = { ...scenario, timeoutMs: context.timeoutMs };
  const reference = await recordCall(context.direct, { ...timed, era: upstreamEraOf(context) });
  const received = await recordThrough(context, { ...timed, era: clientEraOf(context) });
  return { received, reference };
}

/**
 * Records the reference and the gateway's call at the same time, for a property that mostly waits
 * on the upstream's steps (halving its wall time). The reference carries `referenceToken`, so the
 * upstream's audit row of the gateway's call stays unambiguous.
 */
export async function pairAtOnce(
  context: BatteryContext,
  scenario: Scenario,
  referenceToken: string,
): Promise<{ received: Recording; reference: Recording }> {
  const timed = { ...scenario, timeoutMs: context.timeoutMs };
  const [reference, received] = await Promise.all([
    recordCall(context.direct, { ...timed, progressToken: referenceToken, era: upstreamEraOf(context) }),
    recordThrough(context, { ...timed, era: clientEraOf(context) }),
  ]);
  return { received, reference };
}

/** A timeline lane for a recorded call, with the upstream's send times from its audit row. */
export function recordingLane(label: string, recording: Recording, audit?: AuditEntry): TimelineCall {
  const view = readToolCall(recording);
  const call = recording.frames.find((f) => f.dir === 'client->server' && frameMessage(f)?.method === 'tools/call');
  // readToolCall measures from the first frame of the call's exchange: anchor it on the wall clock.
  const head = call ? (recording.frames.find((f) => f.exchange === call.exchange)?.t ?? call.t) : 0;
  const offset = recording.originEpochMs + head / 1000;
  return {
    label,
    upstreamSentMs: upstreamSentMs(audit),
    clientReceivedMs: view.progress.map((p) => offset + p.atMs),
    ...(view.response && { clientResultMs: offset + view.response.atMs }),
  };
}

/** Opens a session on the gateway in the client's era, telling the runner how long its process took to start. */
export async function openSession(context: BatteryContext): Promise<CheckSession> {
  const session = await openCheckSession(context.gateway, context.timeoutMs, context.clientEra);
  noteStart(context, session.frames());
  return session;
}

/** One session on the gateway for the length of `body`, closed afterwards whatever happens. */
export async function withSession<T>(context: BatteryContext, body: (s: CheckSession) => Promise<T>): Promise<T> {
  const session = await openSession(context);
  try {
    return await body(session);
  } finally {
    await session.close();
  }
}

/**
 * Two sessions on the gateway opened at once for the length of `body`, both closed afterwards
 * whatever happens: one that opened is closed also when the other failed to.
 */
export async function withSessions<T>(
  context: BatteryContext,
  body: (a: CheckSession, b: CheckSession) => Promise<T>,
): Promise<T> {
  const opened = await Promise.allSettled([openSession(context), openSession(context)]);
  const sessions = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
  try {
    const [a, b] = sessions;
    const failed = opened.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed || !a || !b) throw failed?.reason;
    return await body(a, b);
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
  }
}

/** A timeline lane for a call made on a session. */
export function lane(label: string, seen: CallSeen, row?: AuditEntry | string): TimelineCall {
  return {
    label,
    upstreamSentMs: upstreamSentMs(typeof row === 'object' ? row : undefined),
    clientReceivedMs: seen.progress.map((p) => seen.startedEpochMs + p.atMs),
    ...(seen.response && { clientResultMs: seen.startedEpochMs + seen.response.atMs }),
  };
}

/** The numbers every row carries about what the client saw. */
export function seenNumbers(seen: CallSeen): Record<string, number | boolean> {
  return { progressReceived: seen.progress.length, result: seen.response !== undefined };
}

/** The `progress` value of each notification a session call received, in arrival order. */
export const progressValues = (seen: CallSeen): unknown[] => seen.progress.map((p) => progressOf(p.message)?.progress);

/** The raw text of the last frame of the client→gateway leg that contains `needle`. */
export function frameWith(session: CheckSession, needle: string): string | undefined {
  return session
    .frames()
    .filter((f) => f.channel !== 'read' && typeof f.raw === 'string' && f.raw.includes(needle))
    .at(-1)?.raw as string | undefined;
}

/** The SSE frames of a session that carry a JSON-RPC message. */
export const messageEvents = (frames: readonly Frame[]): Frame[] =>
  frames.filter((f) => f.channel === 'sse' && frameMessage(f) !== undefined);
