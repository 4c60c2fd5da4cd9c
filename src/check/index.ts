/**
 * `mcp-golden/check`: the gateway check (`mcp-golden check` as a function) with its report
 * formats, and the invariants it judges with, for use on any two transcripts.
 */

export type { InvariantResult } from '../invariants/invariants.js';
export {
  forwardsFaithfully,
  preservesBlocks,
  preservesProgressTokens,
  preservesUnicode,
  streamsProgressively,
} from '../invariants/invariants.js';
export type { Arrival, Call } from '../transcript/read-calls.js';
export { readToolCall } from '../transcript/read-calls.js';
export type { TimingTolerance } from '../transcript/timing-tolerance.js';
export { formatReport, timelineSvg } from './report.js';
export type { CheckOptions } from './run-check.js';
export { runGatewayCheck } from './run-check.js';
export type { CheckReport, PropertyResult, TimelineCall, Verdict } from './vocabulary.js';
