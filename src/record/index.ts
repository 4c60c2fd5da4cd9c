/**
 * `mcp-golden/record`: the recorder's building blocks beside `recordCall`: the byte taps (a recording
 * `fetch` for the SDK's client transport, a recording reverse proxy, a recording stdio proxy), the
 * frame sink they write to, and the scenario list helpers.
 */
export type { BodyKind } from '../transcript/body-kind.js';
export type { BodyTap, Clock } from './frame-sink.js';
export { FrameSink, monotonicClock } from './frame-sink.js';
export { loadStandardScenarios } from './record-goldens.js';
export type { FetchLike } from './recording-fetch.js';
export { recordingFetch } from './recording-fetch.js';
export type { RecordingProxy, RecordingProxyOptions } from './recording-proxy.js';
export { startRecordingProxy } from './recording-proxy.js';
export { parseScenario, parseScenarioList } from './scenario.js';
export { scenarioOfGolden } from './scenario-of-golden.js';
export type { ScenarioStep } from './scenario-session.js';
export type { IdleTimers, SessionEndReason } from './session-activity.js';
export { splitSessions } from './split-sessions.js';
export type { StdioRecordingProxy, StdioRecordingProxyOptions } from './stdio-recording-proxy.js';
export { startStdioRecordingProxy } from './stdio-recording-proxy.js';
