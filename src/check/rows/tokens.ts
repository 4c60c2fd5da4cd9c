/** The tokens family: a progress token reaches the upstream unchanged, and progress comes back under it (and none without one). */
import { type InvariantResult, preservesProgressTokens } from '../../invariants/invariants.js';
import { auditFor } from '../audit.js';
import { failedRecording, fromInvariant, pair, recordingLane, row } from '../kit.js';
import type { BatteryProperty, TimelineCall } from '../vocabulary.js';

/** Calls with each of `tokens` in turn, each compared with the same call made directly. */
export const tokens = (name: string, values: readonly (string | number)[]): BatteryProperty =>
  row(
    name,
    'light',
    async (context) => {
      const calls: TimelineCall[] = [];
      let last: InvariantResult | undefined;
      for (const token of values) {
        const { received, reference } = await pair(context, {
          tool: 'progress',
          arguments: { steps: 5, step_ms: 20 },
          progressToken: token,
        });
        const upstream = await auditFor(context, token);
        calls.push(recordingLane(`token ${JSON.stringify(token)}`, received, upstream));
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
    },
    { onError: failedRecording },
  );

/** A call without a token gets no progress, as made directly. */
export const noToken: BatteryProperty = row(
  'no progress without a token',
  'light',
  async (context, name) => {
    const { received, reference } = await pair(context, { tool: 'progress', arguments: { steps: 3, step_ms: 20 } });
    return fromInvariant(name, preservesProgressTokens(received, reference), []);
  },
  { onError: failedRecording },
);
