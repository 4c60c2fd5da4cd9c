/**
 * The spacing family: progress streams live, its gaps as the upstream spaced them, with and without
 * `X-Accel-Buffering: no` from the upstream.
 */
import * as zlib from 'node:zlib';
import { type InvariantResult, streamsProgressively } from '../../invariants/invariants.js';
import type { RecordTarget } from '../../record/record-call.js';
import { NO_ACCEL_TOKEN_MARK } from '../../server/http-server.js';
import { auditFor } from '../audit.js';
import { failedRecording, fromInvariant, pair, pairAtOnce, recordingLane, row, spawnsProcesses } from '../kit.js';
import { watchStalls } from '../stall-watch.js';
import {
  type BatteryContext,
  type BatteryLoad,
  type BatteryProperty,
  NEEDS_ACCEL_HEADER,
  type TimelineCall,
} from '../vocabulary.js';

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
    lane = recordingLane(label, value.received, await auditFor(context, token));
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
export const spacing = (name: string, steps: number, stepMs: number, load: BatteryLoad): BatteryProperty =>
  row(
    name,
    load,
    async (context) => {
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
    },
    { onError: failedRecording },
  );
