import { GoldenError } from '../errors.js';
import type { Transcript, TranscriptHeader } from '../transcript/frame.js';
import { GOLDEN_FORMAT } from '../transcript/frame.js';
import { type RedactOptions, redactTranscript } from '../transcript/redact.js';
import { DEFAULT_PROTOCOL_VERSION, RECORDER } from '../version.js';
import { FrameSink } from './frame-sink.js';
import { openHttpSession } from './http-wire-session.js';
import { type FetchLike, recordingFetch } from './recording-fetch.js';
import { runScenario, type ScenarioOutcome } from './run-scenario.js';
import { parseScenario, type Scenario } from './scenario.js';
import { assignStdioExchanges, openStdioSession, type StdioCommand } from './stdio-wire-session.js';
import type { WireSession } from './wire-session.js';

/**
 * What to record: an MCP endpoint URL (or anything with a `url`, such as a running reference
 * server), optionally with extra headers, or a command that serves MCP on stdio.
 */
export type RecordTarget =
  | string
  | URL
  | {
      readonly url: string;
      readonly headers?: Readonly<Record<string, string>>;
      /** How the target is named in the transcript header. @default the URL */
      readonly label?: string;
    }
  | StdioCommand;

/** Options of {@link recordCall}. */
export interface RecordOptions {
  /** Secrets to remove before the transcript is returned. @default credential headers only */
  readonly redact?: RedactOptions;
  /** The fetch the recording tap wraps. @default globalThis.fetch */
  readonly fetch?: FetchLike;
}

/** A recorded transcript together with what the client saw, counted on the wire. */
export interface Recording extends Transcript {
  readonly outcome: ScenarioOutcome;
  /** Wall-clock time of `t = 0`, in ms since the epoch (not saved in goldens). */
  readonly originEpochMs: number;
}

function describeTarget(target: RecordTarget): string {
  if (typeof target === 'string' || target instanceof URL) return String(target);
  if ('url' in target) return target.label ?? target.url;
  return target.label ?? [target.command, ...(target.args ?? [])].join(' ');
}

/**
 * Records one call byte by byte: initialize, the tool call (with the scenario's token, request id,
 * cancellation or drop-and-resume), and session close. Every read is time-stamped.
 *
 * @example
 * const stream = await recordCall(server.url, { tool: 'progress', arguments: { steps: 3, step_ms: 50 }, progressToken: 'p1' })
 * await expect(stream).toMatchGolden()
 */
export async function recordCall(
  target: RecordTarget,
  scenario: Scenario,
  options: RecordOptions = {},
): Promise<Recording> {
  const checked = parseScenario(scenario, scenario.name ? `"${scenario.name}"` : `for tool "${String(scenario.tool)}"`);
  const sink = new FrameSink();
  const protocolVersion = checked.protocolVersion ?? DEFAULT_PROTOCOL_VERSION;
  let session: WireSession;
  let transport: 'http' | 'stdio';
  if (typeof target === 'string' || target instanceof URL || 'url' in target) {
    const url = typeof target === 'string' || target instanceof URL ? String(target) : target.url;
    if (!/^https?:\/\//.test(url)) {
      throw new GoldenError(
        'E_TARGET',
        `Cannot record "${url}": expected an http:// or https:// MCP endpoint URL, or a stdio command.`,
      );
    }
    const headers = typeof target === 'object' && 'headers' in target ? target.headers : undefined;
    session = openHttpSession(url, {
      fetch: recordingFetch(sink, options.fetch),
      protocolVersion,
      ...(headers && { headers }),
      ...(checked.timeoutMs !== undefined && { timeoutMs: checked.timeoutMs }),
    });
    transport = 'http';
  } else {
    session = openStdioSession(target, sink);
    transport = 'stdio';
  }
  let outcome: ScenarioOutcome;
  try {
    outcome = await runScenario(session, checked);
  } catch (error) {
    await session.close().catch(() => undefined);
    throw error;
  }
  const header: TranscriptHeader = {
    format: GOLDEN_FORMAT,
    protocolVersion,
    transport,
    target: describeTarget(target),
    ...(checked.name !== undefined && { scenario: checked.name }),
    tool: checked.tool,
    arguments: checked.arguments ?? {},
    recorder: RECORDER,
    notes: scenarioNotes(checked),
  };
  const finished = sink.finish(header);
  const frames = transport === 'stdio' ? assignStdioExchanges(finished.frames) : finished.frames;
  const transcript = redactTranscript({ header, frames }, options.redact);
  return { ...transcript, outcome, originEpochMs: sink.originEpochMs };
}

function scenarioNotes(scenario: Scenario): Record<string, unknown> {
  const notes: Record<string, unknown> = {};
  if (scenario.progressToken !== undefined) notes.progressToken = scenario.progressToken;
  if (scenario.requestId !== undefined) notes.requestId = scenario.requestId;
  if (scenario.cancelAfter !== undefined) notes.cancelAfter = scenario.cancelAfter;
  if (scenario.dropAfter !== undefined) notes.dropAfter = scenario.dropAfter;
  if (scenario.server !== undefined) notes.server = scenario.server;
  if (scenario.description !== undefined) notes.description = scenario.description;
  if (scenario.lint !== undefined) notes.lint = scenario.lint;
  return notes;
}
