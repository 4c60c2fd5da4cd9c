/**
 * `mcp-golden/check`: the gateway check (`mcp-golden check` as a function) with its report
 * formats, and the invariants it judges with, for use on any two transcripts.
 */
export type { CallView } from '../invariants/call-view.js';
export { callView } from '../invariants/call-view.js';
export type { InvariantResult, StreamingTolerance } from '../invariants/invariants.js';
export {
  checkBlocks,
  checkForwarding,
  checkProgressTokens,
  checkStreaming,
  checkUnicode,
} from '../invariants/invariants.js';
export type { PropertyResult, TimelineCall, Verdict } from './battery.js';
export { formatReport, timelineSvg } from './report.js';
export type { CheckOptions, CheckReport } from './run-check.js';
export { runGatewayCheck } from './run-check.js';
