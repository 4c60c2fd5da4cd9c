/**
 * `mcp-golden`: record MCP sessions as goldens, replay them as a fake upstream, compare, verify and
 * lint them. Adapters live on subpaths: `mcp-golden/vitest`, `mcp-golden/msw`, `mcp-golden/fast-check`,
 * `mcp-golden/server`, `mcp-golden/check`, and the recorder's taps on `mcp-golden/record`.
 */
export type { GoldenErrorCode } from './errors.js';
export { GoldenError, isGoldenError } from './errors.js';
export type { LintRuleId } from './lint/lint-rules.js';
export type { LintOptions, LintReport, LintRuleSwitches, SkippedRule } from './lint/lint-transcript.js';
export { lintTranscript } from './lint/lint-transcript.js';
export type { LintViolation } from './lint/lint-violation.js';
export type { Recording, RecordOptions, RecordTarget } from './record/record-call.js';
export { recordCall } from './record/record-call.js';
export type {
  GoldenTarget,
  RecordedGolden,
  RecordGoldensOptions,
  RecordGoldensResult,
} from './record/record-goldens.js';
export { loadScenarioFile, recordGoldens } from './record/record-goldens.js';
export type { ScenarioOutcome } from './record/run-scenario.js';
export type { Scenario, ScenarioServer } from './record/scenario.js';
export type { StdioCommand } from './record/stdio-wire-session.js';
export type { RecordReferenceGoldensOptions } from './reference-goldens.js';
export { recordReferenceGoldens } from './reference-goldens.js';
export type { ChunkingOptions } from './replay/chunking.js';
export type { Pace } from './replay/pacing.js';
export type { ReplayOptions } from './replay/replay-engine.js';
export type { AuditedRequest, ReplayFaults } from './replay/replay-faults.js';
export type { GoldenInput, NamedGolden } from './replay/replay-plan.js';
export type { ReplayReport, ReplayReportEntry, UnmatchedRequest } from './replay/replay-report.js';
export type { ReplayServer, ReplayServerOptions } from './replay/replay-server.js';
export { createReplayServer } from './replay/replay-server.js';
export type { StdioReplay, StdioReplayOptions } from './replay/stdio-replay.js';
export { serveReplayStdio } from './replay/stdio-replay.js';
export { readGolden, writeGolden } from './store/golden-file.js';
export { parseTranscript } from './store/parse-golden.js';
export type { CompareOptions, Comparison } from './transcript/compare.js';
export { compareTranscripts } from './transcript/compare.js';
export type { Channel, Direction, EndReason, Era, Frame, Transcript, TranscriptHeader } from './transcript/frame.js';
export { GOLDEN_FORMAT } from './transcript/frame.js';
export type { JsonRpcMessage } from './transcript/frame-content.js';
export type { GoldenNotes } from './transcript/golden-notes.js';
export { normalizeTranscript } from './transcript/normalize.js';
export type { ParseOptions } from './transcript/parse.js';
export type { RedactOptions } from './transcript/redact.js';
export { redactTranscript } from './transcript/redact.js';
export { serializeTranscript } from './transcript/serialize.js';
export { formatTimeline } from './transcript/timeline.js';
export type { TimingTolerance } from './transcript/timing-tolerance.js';
export type { VolatileOptions } from './transcript/volatile.js';
export type { Difference, DifferenceKind } from './verify/json-difference.js';
export type { ChangeClass, SchemaChange } from './verify/schema-drift.js';
export type { GoldenVerdict, VerifyOptions } from './verify/verify-goldens.js';
export { verifyGoldens } from './verify/verify-goldens.js';
export { VERSION } from './version.js';
