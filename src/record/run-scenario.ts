import { GoldenError } from '../errors.js';
import { type Era, MODERN_PROTOCOL_VERSION } from '../transcript/frame.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { isErrorResult } from '../transcript/json-rpc.js';
import { argumentRejection, rejectedArguments } from './argument-error.js';
import { callFailure } from './client-call.js';
import { handshakeIds } from './client-handshake.js';
import { listAdvertised } from './list-advertised.js';
import { describeScenario, type Scenario } from './scenario.js';
import { type CallStep, isCallStep, type ScenarioStep } from './scenario-session.js';
import { openSessionClient, type SessionClient } from './session-client.js';
import { listenStandalone, type StandaloneListener } from './standalone-listener.js';
import type { WireSession } from './wire-session.js';

/** What the client saw of one scenario, counted on the wire. */
export interface ScenarioOutcome {
  /** Progress notifications received for the call, in order. */
  readonly progress: readonly JsonRpcMessage[];
  /** The call's response (result or error), if one arrived. */
  readonly response?: JsonRpcMessage;
  /** Messages for the call that arrived after the cancellation was sent. */
  readonly afterCancel: readonly JsonRpcMessage[];
  readonly cancelled: boolean;
  readonly resumed: boolean;
  /** Protocol version the server answered in `initialize` (legacy), or the modern revision. */
  readonly protocolVersion: string;
  /** `input_required` rounds answered from the scenario's `answers` (modern era). */
  readonly inputRounds: number;
  /** `tasks/get` polls sent for a call the server answered with a task (tasks extension, modern era). */
  readonly taskPolls?: number;
}

/** The era a scenario runs in, chosen before it starts (`auto` is resolved by the caller's probe). */
export interface EraChoice {
  readonly era: Era;
  /** The modern handshake already happened: the probe's `server/discover` was it. @default false */
  readonly discovered?: boolean;
}

/** The modern era's handshake: `server/discover` must offer 2026-07-28 (unless the probe already asked). */
async function discoverModern(client: SessionClient, scenario: Scenario, id: number): Promise<string> {
  const found = await client.discover(id);
  if (!found.offered) {
    // A target not reached, or refusing as not found or not allowed, says its own fix (the URL, the
    // credentials); another era would fare no better, so the era advice is for a server that answered.
    const advice = found.addressFailure
      ? ''
      : ' Expected server/discover to offer 2026-07-28. Record a 2025 server with --era legacy (or "era": "legacy"), or let --era auto choose.';
    throw new GoldenError(
      'E_TARGET',
      `Recording ${describeScenario(scenario)} in the modern era (2026-07-28) failed: ${found.why}.${advice}`,
    );
  }
  return MODERN_PROTOCOL_VERSION;
}

/**
 * Drives one scenario over a wire session as a real client would. Legacy era: initialize,
 * initialized, `tools/list` and the other lists the server advertises, with the standalone GET
 * stream open where the scenario has `answers`; modern era (2026-07-28): `server/discover` and
 * `tools/list`, every request with the per-request envelope and its `Mcp-*` headers. Then each step
 * in order (a plain scenario is one call): a call with its token and request id, or any request.
 * A call answers the server's requests (legacy) or `input_required` rounds (modern, each retry
 * with a new id) from `answers`; cancels after progress k (legacy: `notifications/cancelled`;
 * modern over HTTP: closes the stream) or drops the stream after progress k (legacy: resumes with
 * `Last-Event-ID`; modern: re-issues the call with a new id); reconnects with `Last-Event-ID` when
 * a legacy server closes or drops the call's stream early, waiting as its `retry:` asks. Progress
 * is counted on the wire, message by message. A call that ends without a result (and was not
 * cancelled on purpose) fails with `E_RECORD`. The outcome is the first call's.
 */
export async function runScenario(
  session: WireSession,
  scenario: Scenario,
  choice: EraChoice = { era: 'legacy' },
): Promise<ScenarioOutcome> {
  const timeoutMs = scenario.timeoutMs ?? 30_000;
  // A plain scenario is a one-step session: its call, with id 1 unless it names one.
  const steps: readonly ScenarioStep[] = scenario.steps ?? [
    { tool: scenario.tool, requestId: scenario.requestId ?? 1 },
  ];
  const stepIds = steps.map((step, index) => step.requestId ?? STEP_ID_BASE + index);
  const ids = handshakeIds(stepIds);
  const modern = choice.era === 'modern';
  const client = openSessionClient(session, {
    era: choice.era,
    timeoutMs,
    scenario,
    answerServer: true,
    settleMs: 1000,
  });
  // Ids of retries and re-issues: whole numbers clear of the handshake's and the steps' own (the
  // modern era lists only tools: the ids kept for the other lists are free there).
  client.reserve([...stepIds, ids.initialize, ids.toolsList, ...(modern ? [] : ids.lists)]);
  let protocolVersion = MODERN_PROTOCOL_VERSION;
  let standalone: StandaloneListener | undefined;
  let paramHeaders: Record<string, string>;
  if (modern) {
    if (!choice.discovered) await discoverModern(client, scenario, ids.initialize);
    paramHeaders = await client.listTools(ids.toolsList);
  } else {
    const answered = await client.initialize(ids.initialize);
    protocolVersion = answered.protocolVersion;
    standalone = await listenStandalone(session, scenario);
    paramHeaders = await client.listTools(ids.toolsList);
    await listAdvertised(session, scenario, answered.capabilities, ids.lists, timeoutMs);
  }
  let outcome: CallOutcome | undefined;
  for (const [index, step] of steps.entries()) {
    const id = stepIds[index] as string | number;
    if (isCallStep(step)) {
      const call = await recordStep(client, callScenario(scenario, step, id), paramHeaders, standalone);
      outcome ??= call;
    } else {
      const plain: JsonRpcMessage = {
        jsonrpc: '2.0',
        id,
        method: step.method,
        ...(step.params && { params: step.params }),
      };
      await client.ask(plain);
      standalone?.check();
    }
  }
  await client.close();
  return { ...(outcome as CallOutcome), protocolVersion };
}

/** The scenario of one call step: the session's fields and the step's own, nothing of another call. */
function callScenario(
  scenario: Scenario,
  step: CallStep,
  requestId: string | number,
): Scenario & { readonly requestId: string | number } {
  if (!scenario.steps) return { ...scenario, requestId };
  const {
    tool,
    arguments: _a,
    progressToken: _p,
    cancelAfter: _c,
    dropAfter: _d,
    expectError: _e,
    task: _t,
    steps,
    ...session
  } = scenario;
  return { ...session, ...(step as Scenario), requestId };
}

/** What the client saw of one call. */
type CallOutcome = Omit<ScenarioOutcome, 'protocolVersion'>;

/** Where the ids of a session's steps start when the steps name none: clear of the handshake's. */
const STEP_ID_BASE = 10;

/**
 * Records one call of a scenario on the session client: its token and request id, the answers to
 * the server's requests or `input_required` rounds, cancel or drop after progress k, reconnects as
 * the server asks. A call that ends without a result, and was not cancelled on purpose, fails.
 */
async function recordStep(
  client: SessionClient,
  scenario: Scenario & { readonly requestId: string | number },
  paramHeaders: Readonly<Record<string, string>>,
  standalone: StandaloneListener | undefined,
): Promise<CallOutcome> {
  const stepMs = Number(scenario.arguments?.step_ms ?? 200);
  const seen = await client.call({
    tool: scenario.tool,
    arguments: scenario.arguments ?? {},
    id: scenario.requestId,
    ...(scenario.progressToken !== undefined && { token: scenario.progressToken }),
    ...(scenario.cancelAfter !== undefined && { cancelAfterProgress: scenario.cancelAfter }),
    ...(scenario.dropAfter !== undefined && { dropAfterProgress: scenario.dropAfter }),
    // Anything the server sends for the call after the cancel is a bug; wait a while to catch it.
    afterCancelMs: Math.min(2000, Math.max(300, 3 * stepMs)),
    cancelReason: `mcp-golden: cancel after progress ${scenario.cancelAfter}`,
    reconnect: true,
    scenario,
    paramHeaders,
    ...(standalone && { standalone }),
    ...(scenario.task !== undefined && { task: scenario.task }),
    followTasks: true,
  });
  if (seen.end === 'failed') throw seen.error;
  const cancelled = seen.cancelAtMs !== undefined;
  if (!cancelled && seen.end !== 'response') {
    throw callFailure(
      scenario,
      seen.end === 'broken'
        ? 'the connection broke before the result and carried no SSE event id to resume from'
        : 'the stream ended without a result',
    );
  }
  standalone?.check();
  const response = seen.response?.message;
  if (response && scenario.expectError === true && !isErrorResponse(response)) {
    throw callFailure(scenario, 'the scenario expects an error ("expectError": true) but the call succeeded');
  }
  // A task poll's error (an unknown task id) is the task's end, not the tool refusing its arguments.
  const rejected =
    response && scenario.expectError !== true && seen.taskPolls === undefined ? argumentRejection(response) : undefined;
  if (rejected !== undefined) throw rejectedArguments(scenario, rejected);
  return {
    progress: seen.progress.map((p) => p.message),
    ...(response && { response }),
    afterCancel: seen.afterCancel.map((p) => p.message),
    cancelled,
    resumed: seen.resumed,
    inputRounds: seen.inputRounds,
    ...(seen.taskPolls !== undefined && { taskPolls: seen.taskPolls }),
  };
}

function isErrorResponse(response: JsonRpcMessage): boolean {
  return 'error' in response || isErrorResult(response);
}
