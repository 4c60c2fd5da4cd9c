export type { PropertyResult, TimelineCall, Verdict } from './check/battery.js';
export { formatReport, timelineSvg } from './check/report.js';
export type { CheckOptions, CheckReport } from './check/run-check.js';
export { runGatewayCheck } from './check/run-check.js';
export type { GoldenErrorCode } from './errors.js';
export { GoldenError, isGoldenError } from './errors.js';
export type { CallView } from './invariants/call-view.js';
export { callView } from './invariants/call-view.js';
export type { InvariantResult, StreamingTolerance } from './invariants/invariants.js';
export {
  checkBlocks,
  checkForwarding,
  checkProgressTokens,
  checkStreaming,
  checkUnicode,
} from './invariants/invariants.js';
export type { LintRuleId, LintRuleInfo, LintRuleSource } from './lint/lint-rules.js';
export { isLintRuleId, LINT_RULES, lintRule } from './lint/lint-rules.js';
export type { LintOptions, LintReport, LintRuleSwitches, SkippedRule } from './lint/lint-transcript.js';
export { lintTranscript } from './lint/lint-transcript.js';
export type { LintViolation } from './lint/lint-violation.js';
export { formatViolation } from './lint/lint-violation.js';
export { partialResultOf } from './lint/partial-results.js';
export type { TimingOptions } from './lint/timing-rules.js';
export { DEFAULT_TIMING } from './lint/timing-rules.js';
export type { BodyKind, BodyTap, Clock } from './record/frame-sink.js';
export { FrameSink, monotonicClock } from './record/frame-sink.js';
export type { Recording, RecordOptions, RecordTarget } from './record/record-call.js';
export { recordCall } from './record/record-call.js';
export type {
  GoldenTarget,
  RecordedGolden,
  RecordGoldensOptions,
  RecordGoldensResult,
} from './record/record-goldens.js';
export { loadScenarioFile, loadStandardScenarios, recordGoldens } from './record/record-goldens.js';
export type { FetchLike } from './record/recording-fetch.js';
export { recordingFetch } from './record/recording-fetch.js';
export type { RecordingProxy, RecordingProxyOptions } from './record/recording-proxy.js';
export { startRecordingProxy } from './record/recording-proxy.js';
export type { ScenarioOutcome } from './record/run-scenario.js';
export type { Scenario, ScenarioServer } from './record/scenario.js';
export { parseScenario, parseScenarioList } from './record/scenario.js';
export { scenarioOfGolden } from './record/scenario-of-golden.js';
export type { StdioCommand } from './record/stdio-wire-session.js';
export type { RecordReferenceGoldensOptions, ReferenceTargets } from './reference-goldens.js';
export { recordReferenceGoldens, referenceTargets } from './reference-goldens.js';
export type { ChunkingOptions } from './replay/chunking.js';
export type { HttpRuleOptions } from './replay/http-guards.js';
export { HttpReplay } from './replay/http-replay.js';
export type { ReplayAnswer, ReplayCall, ReplaySession } from './replay/replay-engine.js';
export { ReplayEngine } from './replay/replay-engine.js';
export type {
  IncomingRequest,
  Pace,
  ReplayOptions,
  ReplayReport,
  ReplayReportEntry,
  ResponseSink,
  UnmatchedRequest,
} from './replay/replay-options.js';
export type { GoldenInput, NamedGolden, ReplayExchange, ReplayPlan } from './replay/replay-plan.js';
export { buildReplayPlan } from './replay/replay-plan.js';
export type { ReplayServer, ReplayServerOptions } from './replay/replay-server.js';
export { createReplayServer } from './replay/replay-server.js';
export type { StdioReplay, StdioReplayOptions } from './replay/stdio-replay.js';
export { serveReplayStdio } from './replay/stdio-replay.js';
export { readGolden, writeGolden } from './store/golden-file.js';
export { canonicalJson } from './transcript/canonical-json.js';
export type { CompareOptions, Comparison, TimingTolerance } from './transcript/compare.js';
export { compareTranscripts } from './transcript/compare.js';
export type { Channel, Direction, EndReason, Frame, Transcript, TranscriptHeader } from './transcript/frame.js';
export { GOLDEN_FORMAT } from './transcript/frame.js';
export type { JsonRpcMessage } from './transcript/frame-content.js';
export { frameBytes, frameMessage, sseBlock } from './transcript/frame-content.js';
export type { AliasKind } from './transcript/normalize.js';
export { AliasTable, normalizeTranscript } from './transcript/normalize.js';
export type { ParseOptions } from './transcript/parse.js';
export { parseTranscript } from './transcript/parse.js';
export type { RedactOptions } from './transcript/redact.js';
export { REDACTED, redactTranscript, SECRET_HEADERS } from './transcript/redact.js';
export type { SemanticFrame } from './transcript/semantic-view.js';
export { semanticFrames } from './transcript/semantic-view.js';
export { encodeRaw, serializeTranscript } from './transcript/serialize.js';
export type { SseBlock } from './transcript/sse.js';
export { SseParser, splitSse } from './transcript/sse.js';
export type { TimelineStats } from './transcript/timeline.js';
export { formatTimeline, timelineStats } from './transcript/timeline.js';
export type { CompiledVolatile, VolatileOptions } from './transcript/volatile.js';
export { compileVolatile, NAMED_MASKS } from './transcript/volatile.js';
export type { CompareSessionOptions, SessionComparison } from './verify/compare-session.js';
export { compareSessions } from './verify/compare-session.js';
export type { Difference, DifferenceKind } from './verify/json-difference.js';
export { formatDifference } from './verify/json-difference.js';
export type { ChangeClass, SchemaChange } from './verify/schema-drift.js';
export { classifyListChanges } from './verify/schema-drift.js';
export type { GoldenVerdict, VerifyOptions } from './verify/verify-goldens.js';
export { verifyGoldens } from './verify/verify-goldens.js';
export { VERSION } from './version.js';
