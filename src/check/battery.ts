import * as zlib from 'node:zlib';
import { describeError, isGoldenError } from '../errors.js';
import {
  type InvariantResult,
  preservesBlocks,
  preservesProgressTokens,
  preservesUnicode,
  streamsProgressively,
} from '../invariants/invariants.js';
import { type Recording, type RecordTarget, recordCall } from '../record/record-call.js';
import type { Scenario } from '../record/scenario.js';
import type { AuditEntry } from '../server/audit-log.js';
import { NO_ACCEL_TOKEN_MARK } from '../server/http-server.js';
import type { Era } from '../transcript/frame.js';
import { frameMessage, sseBlock } from '../transcript/frame-content.js';
import { progressOf } from '../transcript/json-rpc.js';
import { readToolCall } from '../transcript/read-calls.js';
import { FAULT_ROWS } from './fault-rows.js';
import { NEEDS_ACCEL_HEADER } from './report.js';
import { watchStalls } from './stall-watch.js';
import { STREAM_ROWS } from './stream-rows.js';

/** pass, fail, or not applicable to this gateway or transport. */
export type Verdict = 'pass' | 'fail' | 'n/a';

/** One call drawn on the timeline: when the upstream sent, when the client received. */
export interface TimelineCall {
  readonly label: string;
  /** Epoch ms of each progress notification the upstream sent. */
  readonly upstreamSentMs: readonly number[];
  /** Epoch ms of each progress notification the client received. */
  readonly clientReceivedMs: readonly number[];
  /** Epoch ms the client received the result, if it did. */
  readonly clientResultMs?: number;
}

/** One row of the verdict table. */
export interface PropertyResult {
  readonly property: string;
  readonly verdict: Verdict;
  /** Why, in numbers. */
  readonly evidence: string;
  readonly numbers: Readonly<Record<string, number | string | boolean>>;
  readonly calls: readonly TimelineCall[];
}

/** What the battery needs: where to send calls, and how to reach the upstream directly. */
export interface BatteryContext {
  /** The gateway, as the client sees it. */
  readonly gateway: RecordTarget;
  /** The upstream itself, for reference recordings. */
  readonly direct: RecordTarget;
  readonly clientTransport: 'http' | 'stdio';
  readonly upstreamTransport: 'http' | 'stdio';
  /** The upstream's audit log: read in process, or over the wire through the gateway (`audit_log`). */
  readonly audit: () => Promise<AuditEntry[]>;
  /** Longest wait for any one message. */
  readonly timeoutMs: number;
  /**
   * The upstream sends `X-Accel-Buffering: no` (HTTP upstream without `--no-accel-header`): the
   * spacing rows then also run calls for which it omits the header, to say whether live streaming
   * depends on it.
   */
  readonly upstreamAccelHeader?: boolean;
  /** The era the check's client speaks to the gateway. @default 'legacy' */
  readonly clientEra?: Era;
  /** The era of the reference upstream (`modern`: it refuses the 2025 handshake). @default 'legacy' */
  readonly upstreamEra?: Era;
  /** How long the idle row's call stays silent before its result (`--idle-budget-ms`). @default 3000 */
  readonly idleBudgetMs?: number;
  /** The audit logs of two upstream replicas, when the gateway command names `{upstream2}` (the affinity row). */
  readonly replicas?: readonly [() => Promise<AuditEntry[]>, () => Promise<AuditEntry[]>];
}

/**
 * How a property shares the machine with the properties that run beside it (see
 * {@link runBattery}): `tight` judges gaps of tens of ms and runs alone; `loose` judges gaps of
 * hundreds of ms and runs beside `light` ones; `light` moves kilobytes and mostly waits; `heavy`
 * moves megabytes and runs only beside other heavy ones, never beside a timing judgement.
 */
export type BatteryLoad = 'tight' | 'loose' | 'light' | 'heavy';

/** One property of the battery. */
export interface BatteryProperty {
  readonly name: string;
  readonly load: BatteryLoad;
  /** Spends most of its time waiting (a client pause, slow upstream steps): started first in its stage, so the wait overlaps the others' work. */
  readonly waits?: boolean;
  run(context: BatteryContext): Promise<PropertyResult>;
}

function timeline(label: string, recording: Recording, audit?: AuditEntry): TimelineCall {
  const view = readToolCall(recording);
  const call = recording.frames.find((f) => f.dir === 'client->server' && frameMessage(f)?.method === 'tools/call');
  // readToolCall measures from the first frame of the call's exchange: anchor it on the wall clock.
  const head = call ? (recording.frames.find((f) => f.exchange === call.exchange)?.t ?? call.t) : 0;
  const offset = recording.originEpochMs + head / 1000;
  return {
    label,
    upstreamSentMs: audit ? audit.notifications.map((n) => audit.startedAtEpochMs + n.sentAtMs) : [],
    clientReceivedMs: view.progress.map((p) => offset + p.atMs),
    ...(view.response && { clientResultMs: offset + view.response.atMs }),
  };
}

function fromInvariant(property: string, result: InvariantResult, calls: TimelineCall[]): PropertyResult {
  return {
    property,
    verdict: result.pass ? 'pass' : 'fail',
    evidence: result.evidence,
    numbers: result.numbers,
    calls,
  };
}

function failed(property: string, error: unknown): PropertyResult {
  // Keep the cause (ECONNRESET, EPIPE, the timeout): "fetch failed" alone says nothing.
  const text = describeError(error);
  const why = isGoldenError(error, 'E_TIMEOUT') ? `the gateway did not answer in time: ${text}` : text;
  return { property, verdict: 'fail', evidence: why.split('\n')[0] ?? why, numbers: {}, calls: [] };
}

/**
 * Records `scenario` directly (reference) and through the gateway, one after the other: the
 * upstream's audit row of the gateway's call is then the last one with the call's token.
 */
async function pair(
  context: BatteryContext,
  scenario: Scenario,
): Promise<{ received: Recording; reference: Recording }> {
  const timed = { ...scenario, timeoutMs: context.timeoutMs };
  const reference = await recordCall(context.direct, { ...timed, era: context.upstreamEra ?? 'legacy' });
  const received = await recordCall(context.gateway, { ...timed, era: context.clientEra ?? 'legacy' });
  return { received, reference };
}

/**
 * Records the reference and the gateway's call at the same time, for a property that mostly waits
 * on the upstream's steps (halving its wall time). The reference carries `referenceToken`, so the
 * upstream's audit row of the gateway's call stays unambiguous.
 */
async function pairAtOnce(
  context: BatteryContext,
  scenario: Scenario,
  referenceToken: string,
): Promise<{ received: Recording; reference: Recording }> {
  const timed = { ...scenario, timeoutMs: context.timeoutMs };
  const [reference, received] = await Promise.all([
    recordCall(context.direct, { ...timed, progressToken: referenceToken, era: context.upstreamEra ?? 'legacy' }),
    recordCall(context.gateway, { ...timed, era: context.clientEra ?? 'legacy' }),
  ]);
  return { received, reference };
}

/** True when every recording starts a process (a stdio client or a stdio upstream). */
export function spawnsProcesses(context: Pick<BatteryContext, 'clientTransport' | 'upstreamTransport'>): boolean {
  return context.clientTransport === 'stdio' || context.upstreamTransport === 'stdio';
}

async function auditFor(context: BatteryContext, token: unknown): Promise<AuditEntry | undefined> {
  const entries = await context.audit().catch(() => [] as AuditEntry[]);
  return entries.filter((e) => e.progressToken === token).at(-1);
}

function property(
  name: string,
  load: BatteryLoad,
  run: (context: BatteryContext) => Promise<PropertyResult>,
): BatteryProperty {
  return {
    name,
    load,
    run: (context) => run(context).catch((error: unknown) => failed(name, error)),
  };
}

const tokenProperty = (name: string, tokens: readonly (string | number)[]): BatteryProperty =>
  property(name, 'light', async (context) => {
    const calls: TimelineCall[] = [];
    let last: InvariantResult | undefined;
    for (const token of tokens) {
      const { received, reference } = await pair(context, {
        tool: 'progress',
        arguments: { steps: 5, step_ms: 20 },
        progressToken: token,
      });
      const upstream = await auditFor(context, token);
      calls.push(timeline(`token ${JSON.stringify(token)}`, received, upstream));
      last = preservesProgressTokens(received, reference);
      if (!last.pass) {
        // Say which leg broke: did the token reach the upstream, and did the upstream send progress?
        const seen = upstream
          ? `; the upstream received token ${JSON.stringify(upstream.progressToken)} (${upstream.progressTokenType}) and sent ${upstream.notifications.length} notifications`
          : '';
        return fromInvariant(name, { ...last, evidence: `${last.evidence}${seen}` }, calls);
      }
    }
    return fromInvariant(name, last as InvariantResult, calls);
  });

/**
 * When the gaps differ from the reference recording, ask the upstream's own record: if every
 * notification reached the client within the same short delay of the upstream sending it, the
 * upstream itself was late (a loaded machine), not the gateway. `undefined` when it cannot tell.
 */
function latencySpread(call: TimelineCall): number | undefined {
  const sent = call.upstreamSentMs;
  if (sent.length === 0 || sent.length !== call.clientReceivedMs.length) return undefined;
  const latencies = call.clientReceivedMs.map((t, i) => t - (sent[i] as number));
  return Math.max(...latencies) - Math.min(...latencies);
}

/** Looks a spacing row may take: two that count, and up to two more in place of ones the check's own process stalled through. */
const SPACING_LOOKS = 4;

/** One spacing judgement: the look that decided, its lane, and how long the check stalled in it. */
interface SpacingLook {
  readonly verdict: InvariantResult;
  readonly lane: TimelineCall | undefined;
  readonly stalledMs: number;
}

/**
 * The `Accept-Encoding` real MCP clients send (browsers and Node's fetch offer gzip, deflate and br;
 * zstd where the runtime can decode it): a gateway that compresses SSE is then judged on the
 * decompressed stream, and one whose compressor holds the stream fails the spacing rows.
 */
export const CLIENT_ACCEPT_ENCODING = `gzip, deflate, br${typeof (zlib as { createZstdDecompress?: unknown }).createZstdDecompress === 'function' ? ', zstd' : ''}`;

/** The gateway target with the client's `Accept-Encoding` (HTTP only; a stdio target is unchanged). */
function acceptingCompression(target: RecordTarget): RecordTarget {
  if (typeof target === 'string' || target instanceof URL)
    return { url: String(target), headers: { 'accept-encoding': CLIENT_ACCEPT_ENCODING } };
  if ('url' in target) return { ...target, headers: { ...target.headers, 'accept-encoding': CLIENT_ACCEPT_ENCODING } };
  return target;
}

async function judgeSpacing(
  plain: BatteryContext,
  steps: number,
  stepMs: number,
  token: string,
  label: string,
): Promise<SpacingLook> {
  const context = { ...plain, gateway: acceptingCompression(plain.gateway) };
  const scenario = { tool: 'progress', arguments: { steps, step_ms: stepMs }, progressToken: token };
  // Buffering spreads latencies over the whole call (450 ms here for 10 x 50 ms); a loaded machine
  // adds tens of ms. A gateway that batches pairs spreads them by a whole step and still fails.
  const allowed = Math.max(40, stepMs * 0.6);
  // A stall of the check's own process this long can by itself put a gap outside the tolerance (±50 %).
  const stallLimitMs = stepMs * 0.5;
  let verdict: InvariantResult | undefined;
  let lane: TimelineCall | undefined;
  let stalledMs = 0;
  for (let look = 1, counted = 0; look <= SPACING_LOOKS && counted < 2; look++) {
    // Over stdio each recording starts a process: one booting beside the gateway's call would
    // skew its gaps, so the reference is recorded first there.
    const { value, longestStallMs } = await watchStalls(() =>
      spawnsProcesses(context) ? pair(context, scenario) : pairAtOnce(context, scenario, `${token}-reference`),
    );
    verdict = streamsProgressively(value.received, value.reference);
    lane = timeline(label, value.received, await auditFor(context, token));
    stalledMs = 0;
    if (verdict.pass) break;
    const spread = latencySpread(lane);
    if (spread !== undefined && spread <= allowed) {
      verdict = {
        ...verdict,
        pass: true,
        evidence: `gaps differ from the direct recording (${verdict.evidence}), but gateway→upstream: every notification reached the client within ${spread.toFixed(0)} ms of the same delay after the upstream sent it (allowed ${allowed.toFixed(0)} ms): the upstream itself was late, not the gateway`,
        numbers: { ...verdict.numbers, latencySpreadMs: Math.round(spread) },
      };
      break;
    }
    // No notification at all, or most bunched at the result (buffering): no stall explains either.
    const bunched = Number(verdict.numbers.bunchedAtResult ?? 0) * 2 >= steps;
    if (verdict.numbers.notifications === 0 || bunched) break;
    // A look the check itself stalled through judged the machine, not the gateway: it does not count.
    if (longestStallMs > stallLimitMs) {
      stalledMs = longestStallMs;
      continue;
    }
    // Anything else may be a stall elsewhere on the machine: look twice.
    counted++;
  }
  if (verdict && !verdict.pass && stalledMs > stallLimitMs) {
    verdict = {
      ...verdict,
      evidence: `${verdict.evidence}; the check's own process stalled ${stalledMs.toFixed(0)} ms during this call (a loaded machine): run the check again on a quieter one`,
      numbers: { ...verdict.numbers, checkStallMs: Math.round(stalledMs) },
    };
  }
  return { verdict: verdict as InvariantResult, lane, stalledMs };
}

/**
 * A spacing row. With an HTTP upstream that sends `X-Accel-Buffering: no`, it runs once as is and,
 * when that passes, once more with calls for which the upstream omits the header (a proxy such as
 * a stock nginx buffers only then): passing only the first is a failure that says so.
 */
const spacingProperty = (name: string, steps: number, stepMs: number, load: BatteryLoad): BatteryProperty =>
  property(name, load, async (context) => {
    const judgeWithout = (): Promise<SpacingLook> =>
      judgeSpacing(
        context,
        steps,
        stepMs,
        `spacing-${stepMs}-${NO_ACCEL_TOKEN_MARK}`,
        `${steps} x ${stepMs} ms, no X-Accel-Buffering`,
      );
    // A row that judges gaps of hundreds of ms takes both looks at once (its wall time stays one call's).
    const early =
      load !== 'tight' && context.upstreamAccelHeader && !spawnsProcesses(context) ? judgeWithout() : undefined;
    // Handled here too: when the look with the header throws, this one is never awaited.
    early?.catch(() => undefined);
    const withHeader = await judgeSpacing(context, steps, stepMs, `spacing-${stepMs}`, `${steps} x ${stepMs} ms`);
    const lanes = withHeader.lane ? [withHeader.lane] : [];
    if (!withHeader.verdict.pass || !context.upstreamAccelHeader) {
      await early;
      return fromInvariant(name, withHeader.verdict, lanes);
    }
    const without = await (early ?? judgeWithout());
    if (without.lane) lanes.push(without.lane);
    if (without.verdict.pass) {
      return fromInvariant(
        name,
        {
          ...withHeader.verdict,
          evidence: `${withHeader.verdict.evidence}; the same with and without X-Accel-Buffering: no from the upstream`,
        },
        lanes,
      );
    }
    return fromInvariant(
      name,
      {
        ...without.verdict,
        evidence: `faithful only when the upstream sends X-Accel-Buffering: no: without it, ${without.verdict.evidence}`,
        numbers: { ...without.verdict.numbers, [NEEDS_ACCEL_HEADER]: true },
      },
      lanes,
    );
  });

const resume = property('Last-Event-ID resume', 'light', async (context) => {
  const name = 'Last-Event-ID resume';
  if (context.clientTransport !== 'http') {
    return { property: name, verdict: 'n/a', evidence: 'stdio has no Last-Event-ID', numbers: {}, calls: [] };
  }
  const probe = await recordCall(context.gateway, {
    tool: 'progress',
    arguments: { steps: 1, step_ms: 1 },
    progressToken: 'probe',
    timeoutMs: context.timeoutMs,
  });
  if (!probe.frames.some((f) => f.channel === 'sse' && sseBlock(f)?.id)) {
    return {
      property: name,
      verdict: 'n/a',
      evidence: 'the gateway sends no SSE event ids, so it offers no resumption',
      numbers: {},
      calls: [],
    };
  }
  const received = await recordCall(context.gateway, {
    tool: 'progress',
    arguments: { steps: 6, step_ms: 100 },
    progressToken: 'check-resume',
    dropAfter: 2,
    timeoutMs: context.timeoutMs,
  });
  const progress = received.outcome.progress.map((m) => progressOf(m)?.progress);
  const numbers = { notifications: progress.length, result: received.outcome.response !== undefined };
  const calls = [timeline('drop after 2, resume', received, await auditFor(context, 'check-resume'))];
  // Every event exactly once: progress 1, 2, 3... with no repeat and no hole, then the result. How
  // many arrive is the tokens property's concern.
  const ok = progress.length >= 3 && progress.every((p, i) => p === i + 1) && received.outcome.response !== undefined;
  return {
    property: name,
    verdict: ok ? 'pass' : 'fail',
    evidence: ok
      ? `dropped after progress 2, resumed: progress 3-${progress.length} and the result arrived exactly once`
      : `after resuming, progress arrived as ${JSON.stringify(progress)}${received.outcome.response ? '' : ' and no result'}; expected 1, 2, 3... each once, then the result`,
    numbers,
    calls,
  };
});

const blocksProperty = (
  name: string,
  load: BatteryLoad,
  scenario: Scenario,
  judge: typeof preservesBlocks,
): BatteryProperty =>
  property(name, load, async (context) => {
    const { received, reference } = await pair(context, scenario);
    return fromInvariant(name, judge(received, reference), []);
  });

/** The whole battery, in the order it runs. */
export const BATTERY: readonly BatteryProperty[] = [
  tokenProperty('progress tokens (string)', ['check-token-é-🚀']),
  tokenProperty('progress tokens (number)', [0, 9007199254740991]),
  property('no progress without a token', 'light', async (context) => {
    const { received, reference } = await pair(context, { tool: 'progress', arguments: { steps: 3, step_ms: 20 } });
    return fromInvariant('no progress without a token', preservesProgressTokens(received, reference), []);
  }),
  spacingProperty('progress streams live (50 ms steps)', 10, 50, 'tight'),
  spacingProperty('progress streams live (500 ms steps)', 3, 500, 'loose'),
  blocksProperty('blocks: count and order', 'light', { tool: 'chatty' }, preservesBlocks),
  blocksProperty('unicode', 'light', { tool: 'chatty' }, preservesUnicode),
  blocksProperty(
    'large output (50 x 64 KiB)',
    'heavy',
    { tool: 'long_output', arguments: { blocks: 50, chars: 65536 } },
    preservesBlocks,
  ),
  resume,
  ...STREAM_ROWS,
  ...FAULT_ROWS,
];
