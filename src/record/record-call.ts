import { GoldenError } from '../errors.js';
import type { Transcript, TranscriptHeader } from '../transcript/frame.js';
import { GOLDEN_FORMAT } from '../transcript/frame.js';
import { type GoldenNotes, notesProblem } from '../transcript/golden-notes.js';
import { type RedactOptions, redactTranscript, SECRET_HEADERS } from '../transcript/redact.js';
import { mergeVolatile } from '../transcript/volatile.js';
import { DEFAULT_PROTOCOL_VERSION, RECORDER } from '../version.js';
import { discover, handshakeIds } from './client-handshake.js';
import { FrameSink } from './frame-sink.js';
import { openHttpSession } from './http-wire-session.js';
import { type FetchLike, recordingFetch } from './recording-fetch.js';
import { type EraChoice, runScenario, type ScenarioOutcome } from './run-scenario.js';
import { parseScenario, type Scenario } from './scenario.js';
import { assignStdioExchanges, openStdioSession, type StdioCommand } from './stdio-wire-session.js';
import { httpTargetParts, secretPatterns, stdioTargetSecrets, type TargetSecrets } from './target-secrets.js';
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
  /**
   * More secrets to remove before the transcript is returned. The target's own secrets (userinfo,
   * query values, given headers, secret-named arguments and environment) are always removed.
   * @default credential headers only
   */
  readonly redact?: RedactOptions;
  /** The fetch the recording tap wraps. @default globalThis.fetch */
  readonly fetch?: FetchLike;
  /**
   * More facts for the header's `notes` (the golden's extension point), under those the recorder
   * writes from the scenario. @default {}
   */
  readonly notes?: Readonly<GoldenNotes>;
}

/** A recorded transcript together with what the client saw, counted on the wire. */
export interface Recording extends Transcript {
  readonly outcome: ScenarioOutcome;
  /** Wall-clock time of `t = 0`, in ms since the epoch (not saved in goldens). */
  readonly originEpochMs: number;
}

/**
 * Records one call as a whole client session, byte by byte: initialize, initialized, `tools/list`,
 * the tool call (with the scenario's token, request id, answers to server requests, cancellation,
 * drop-and-resume or reconnection), and session close; in the modern era (`era: 'modern'`, or
 * `'auto'` against a server whose `server/discover` offers 2026-07-28) `server/discover`,
 * `tools/list` and the call, each with the per-request envelope and `Mcp-*` headers. Every read is
 * time-stamped; the target's secrets never reach the transcript.
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
  const badNotes = options.notes === undefined ? undefined : notesProblem(options.notes);
  if (badNotes) {
    throw new GoldenError(
      'E_USAGE',
      `Invalid ${badNotes.key} in the record options: expected ${badNotes.expected}, got ${badNotes.got}. The header's notes take these keys typed (see golden.schema.json); any other key is free.`,
    );
  }
  const sink = new FrameSink();
  const protocolVersion = checked.protocolVersion ?? DEFAULT_PROTOCOL_VERSION;
  let session: WireSession;
  let transport: 'http' | 'stdio';
  let secrets: TargetSecrets;
  let secretHeaders: readonly string[] = [];
  if (typeof target === 'string' || target instanceof URL || 'url' in target) {
    const url = typeof target === 'string' || target instanceof URL ? String(target) : target.url;
    if (!/^https?:\/\//.test(url) || !URL.canParse(url)) {
      throw new GoldenError(
        'E_TARGET',
        `Cannot record "${url.replace(/[?#].*$/s, '')}": expected an http:// or https:// MCP endpoint URL, or a stdio command.`,
      );
    }
    const given = typeof target === 'object' && 'headers' in target ? target.headers : undefined;
    const parts = httpTargetParts(url, given);
    const label = typeof target === 'object' && 'label' in target ? target.label : undefined;
    secrets = { label: label ?? parts.label, values: parts.values };
    secretHeaders = parts.secretHeaders;
    session = openHttpSession(parts.url, {
      fetch: recordingFetch(sink, options.fetch),
      protocolVersion,
      headers: parts.headers,
      label: parts.label,
      ...(checked.timeoutMs !== undefined && { timeoutMs: checked.timeoutMs }),
    });
    transport = 'http';
  } else {
    const found = stdioTargetSecrets(target.command, target.args ?? [], target.env);
    secrets = { label: target.label ?? found.label, values: found.values };
    session = openStdioSession({ ...target, label: secrets.label }, sink);
    transport = 'stdio';
  }
  let outcome: ScenarioOutcome;
  let choice: EraChoice = { era: checked.era === 'modern' ? 'modern' : 'legacy' };
  let probe: string | undefined;
  try {
    if (checked.era === 'auto' && transport === 'http') {
      // Probe as the SDK v2 client does. A server that does not offer 2026-07-28 is recorded in the
      // legacy era from the start: the probe's exchange is left out and named in the header's notes.
      const mark = sink.mark();
      const found = await discover(
        session,
        checked,
        handshakeIds(checked.requestId ?? 1).initialize,
        checked.timeoutMs ?? 30_000,
      );
      if (found.offered) choice = { era: 'modern', discovered: true };
      else {
        sink.rewind(mark);
        probe = `era auto: ${found.why}; recorded in the legacy era`;
      }
    }
    outcome = await runScenario(session, checked, choice);
  } catch (error) {
    await session.close().catch(() => undefined);
    throw error;
  }
  const notes: GoldenNotes = { ...options.notes, ...scenarioNotes(checked) };
  if (probe !== undefined) notes.eraProbe = probe;
  if (outcome.inputRounds > 0) notes.inputRounds = outcome.inputRounds;
  const header: TranscriptHeader = {
    format: GOLDEN_FORMAT,
    era: choice.era,
    protocolVersion: choice.era === 'modern' ? outcome.protocolVersion : protocolVersion,
    transport,
    target: secrets.label,
    ...(checked.name !== undefined && { scenario: checked.name }),
    tool: checked.tool,
    arguments: checked.arguments ?? {},
    recorder: RECORDER,
    notes,
  };
  const finished = sink.finish(header);
  const frames = transport === 'stdio' ? assignStdioExchanges(finished.frames) : finished.frames;
  const transcript = redactTranscript(
    { header, frames },
    {
      headers: [...(options.redact?.headers ?? SECRET_HEADERS), ...secretHeaders],
      patterns: [...secretPatterns(secrets.values), ...(options.redact?.patterns ?? [])],
    },
  );
  return { ...transcript, outcome, originEpochMs: sink.originEpochMs };
}

/** The scenario's facts for the header's notes (its server switches and steps as the scenario's schema checked them). */
function scenarioNotes(scenario: Scenario): GoldenNotes {
  const notes: GoldenNotes = {};
  if (scenario.progressToken !== undefined) notes.progressToken = scenario.progressToken;
  if (scenario.requestId !== undefined) notes.requestId = scenario.requestId;
  if (scenario.cancelAfter !== undefined) notes.cancelAfter = scenario.cancelAfter;
  if (scenario.dropAfter !== undefined) notes.dropAfter = scenario.dropAfter;
  if (scenario.era !== undefined) notes.era = scenario.era;
  if (scenario.server !== undefined) notes.server = { ...scenario.server };
  if (scenario.description !== undefined) notes.description = scenario.description;
  if (scenario.expectError !== undefined) notes.expectError = scenario.expectError;
  if (scenario.answers !== undefined) notes.answers = scenario.answers;
  // A session's steps, so `verify` re-runs every one of them.
  if (scenario.steps !== undefined) notes.steps = [...scenario.steps];
  // What `verify` leaves out of the comparison of this golden, declared once in the scenario.
  const volatile = mergeVolatile({ ignore: scenario.ignore ?? [], mask: scenario.mask ?? [] });
  if (Object.keys(volatile).length > 0) notes.volatile = volatile as GoldenNotes['volatile'];
  if (scenario.lint !== undefined) notes.lint = scenario.lint;
  return notes;
}
