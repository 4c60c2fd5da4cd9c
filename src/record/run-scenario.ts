import { setTimeout as sleep } from 'node:timers/promises';
import { GoldenError } from '../errors.js';
import { type Era, MODERN_PROTOCOL_VERSION } from '../transcript/frame.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { isErrorResult, isResponse, progressOf, resultOf } from '../transcript/json-rpc.js';
import { modernHeaders } from '../transcript/modern-envelope.js';
import { argumentRejection, rejectedArguments } from './argument-error.js';
import {
  answerServerRequest,
  discover,
  drain,
  handshakeIds,
  initialize,
  isServerRequest,
  listTools,
  requestResponse,
} from './client-handshake.js';
import { listAdvertised } from './list-advertised.js';
import { inputResponsesFor, resultTypeOf, withEnvelope } from './modern-era.js';
import type { Scenario } from './scenario.js';
import { type CallStep, isCallStep, type ScenarioStep } from './scenario-session.js';
import { listenStandalone, type StandaloneListener } from './standalone-listener.js';
import { followTask, legacyTaskOf } from './task-polling.js';
import type { CallStream, StreamedMessage, WireSession } from './wire-session.js';

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

const isProgress = (message: JsonRpcMessage): boolean => progressOf(message) !== undefined;

/** How many times in a row the recorder reconnects to a call's stream before it gives up. */
const MAX_RECONNECTS = 10;

/** How many `input_required` rounds one call may take before the recorder gives up. */
const MAX_INPUT_ROUNDS = 10;

function describeScenario(scenario: Scenario): string {
  return scenario.name ? `"${scenario.name}"` : `tool "${scenario.tool}"`;
}

/** The modern era's handshake: `server/discover` must offer 2026-07-28 (unless the probe already asked). */
async function discoverModern(
  session: WireSession,
  scenario: Scenario,
  id: number,
  timeoutMs: number,
): Promise<string> {
  const found = await discover(session, scenario, id, timeoutMs);
  if (!found.offered) {
    throw new GoldenError(
      'E_TARGET',
      `Recording ${describeScenario(scenario)} in the modern era (2026-07-28) failed: ${found.why}. Expected server/discover to offer 2026-07-28. Record a 2025 server with --era legacy (or "era": "legacy"), or let --era auto choose.`,
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
  // The modern era lists only tools: the ids kept for the other lists are free there.
  const handshake = [ids.initialize, ids.toolsList, ...(modern ? [] : ids.lists)];
  let protocolVersion = MODERN_PROTOCOL_VERSION;
  let standalone: StandaloneListener | undefined;
  let paramHeaders: Record<string, string>;
  if (modern) {
    if (!choice.discovered) await discoverModern(session, scenario, ids.initialize, timeoutMs);
    paramHeaders = await listTools(session, scenario, ids.toolsList, timeoutMs, true);
  } else {
    const answered = await initialize(session, scenario, ids.initialize, timeoutMs);
    protocolVersion = answered.protocolVersion;
    standalone = await listenStandalone(session, scenario);
    paramHeaders = await listTools(session, scenario, ids.toolsList, timeoutMs);
    await listAdvertised(session, scenario, answered.capabilities, ids.lists, timeoutMs);
  }
  const context: CallContext = { modern, paramHeaders, standalone, timeoutMs };
  return runSteps(session, scenario, steps, stepIds, context, protocolVersion, handshake);
}

/** How a call is sent and read: the era's framing, the tool's `Mcp-Param-*` headers, the GET stream. */
interface CallContext {
  readonly modern: boolean;
  readonly paramHeaders: Record<string, string>;
  readonly standalone: StandaloneListener | undefined;
  readonly timeoutMs: number;
}

async function runSteps(
  session: WireSession,
  scenario: Scenario,
  steps: readonly ScenarioStep[],
  stepIds: readonly (string | number)[],
  context: CallContext,
  protocolVersion: string,
  reserved: readonly number[],
): Promise<ScenarioOutcome> {
  // Ids of retries and re-issues: whole numbers clear of the handshake's and the steps' own.
  const taken = new Set<unknown>([...stepIds, ...reserved]);
  let lastId = 2;
  const newId = (): number => {
    do lastId++;
    while (taken.has(lastId));
    return lastId;
  };
  let outcome: CallOutcome | undefined;
  for (const [index, step] of steps.entries()) {
    const id = stepIds[index] as string | number;
    if (isCallStep(step)) {
      const call = await runCall(session, callScenario(scenario, step, id), context, newId);
      outcome ??= call;
    } else {
      const plain: JsonRpcMessage = {
        jsonrpc: '2.0',
        id,
        method: step.method,
        ...(step.params && { params: step.params }),
      };
      await requestResponse(
        session,
        scenario,
        context.modern ? withEnvelope(plain, scenario) : plain,
        context.timeoutMs,
      );
      context.standalone?.check();
    }
  }
  await session.close();
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
 * Runs one call of a scenario: sends it with the scenario's token and request id, answers the
 * server's requests or `input_required` rounds, cancels or drops after progress k, and reconnects
 * as the server asks.
 */
async function runCall(
  session: WireSession,
  scenario: Scenario & { readonly requestId: string | number },
  context: CallContext,
  newId: () => number,
): Promise<CallOutcome> {
  const { modern, paramHeaders, standalone, timeoutMs } = context;
  const params: Record<string, unknown> = { name: scenario.tool, arguments: scenario.arguments ?? {} };
  if (scenario.progressToken !== undefined) params._meta = { progressToken: scenario.progressToken };
  if (scenario.task !== undefined && !modern) params.task = scenario.task;
  let callId: string | number = scenario.requestId;
  let roundParams: Record<string, unknown> = {};
  const sendCall = (): Promise<CallStream> => {
    const plain: JsonRpcMessage = {
      jsonrpc: '2.0',
      id: callId,
      method: 'tools/call',
      params: { ...params, ...roundParams },
    };
    if (!modern) return session.request(plain);
    const message = withEnvelope(plain, scenario);
    return session.request(message, modernHeaders(message, paramHeaders));
  };
  // A server request the scenario cannot answer may have come during the handshake already.
  standalone?.check();
  let stream = await (standalone ? Promise.race([sendCall(), standalone.failed]) : sendCall());
  let inputRounds = 0;
  let taskPolls: number | undefined;
  const progress: JsonRpcMessage[] = [];
  const afterCancel: JsonRpcMessage[] = [];
  let response: JsonRpcMessage | undefined;
  let cancelled = false;
  let resumed = false;
  let lastEventId: string | undefined;
  let retryMs: number | undefined;
  let reconnects = 0;
  const fail = (problem: string): never => {
    throw new GoldenError(
      'E_RECORD',
      `Recording ${describeScenario(scenario)} failed: ${problem}. Expected the tools/call result. Check the server's log; a scenario may cancel on purpose with "cancelAfter".`,
    );
  };
  /** Reconnects to the call's stream after the last event seen; false when the stream cannot resume. */
  const reconnect = async (): Promise<boolean> => {
    if (session.transport !== 'http' || lastEventId === undefined) return false;
    if (++reconnects > MAX_RECONNECTS) fail(`the stream closed ${MAX_RECONNECTS} times in a row without a result`);
    await stream.drop();
    // Wait as long as the server's `retry:` asks before reconnecting, as the spec tells clients to.
    await sleep(Math.min(retryMs ?? 1000, 5000));
    stream = await session.resume(lastEventId);
    resumed = true;
    return true;
  };
  const read = async (): Promise<StreamedMessage | undefined | 'broken'> => {
    try {
      const next = stream.next(timeoutMs);
      return await (standalone ? Promise.race([next, standalone.failed]) : next);
    } catch (error) {
      if (error instanceof GoldenError) throw error;
      return 'broken';
    }
  };
  while (!response) {
    const next = await read();
    lastEventId = stream.lastEventId ?? lastEventId;
    retryMs = stream.retryMs ?? retryMs;
    if (next === undefined || next === 'broken') {
      if (await reconnect()) continue;
      fail(
        next === 'broken'
          ? 'the connection broke before the result and carried no SSE event id to resume from'
          : 'the stream ended without a result',
      );
      break;
    }
    const { message } = next;
    if (isResponse(message) && modern && resultTypeOf(message) === 'input_required') {
      if (++inputRounds > MAX_INPUT_ROUNDS) fail(`the server asked for input ${MAX_INPUT_ROUNDS} times in a row`);
      const inputResponses = inputResponsesFor(scenario, message);
      const requestState = resultOf(message)?.requestState;
      await drain(stream, 1000);
      // The retry is a new request: a new id, the answers, and the server's state echoed verbatim.
      callId = newId();
      roundParams = { inputResponses, ...(typeof requestState === 'string' && { requestState }) };
      stream = await sendCall();
      continue;
    }
    const kind = modern ? resultTypeOf(message) : isResponse(message) && legacyTaskOf(message) && 'task';
    if (isResponse(message) && kind === 'task') {
      // A task (the tasks extension; 2025's experimental tasks): followed with tasks/get to its end.
      const task = await followTask(session, scenario, message, newId, timeoutMs, modern);
      response = task.response;
      cancelled = task.cancelled;
      taskPolls = task.polls;
      break;
    }
    if (isResponse(message)) response = message;
    else if (isProgress(message)) {
      progress.push(message);
      reconnects = 0;
    } else if (isServerRequest(message)) await answerServerRequest(session, scenario, message);
    if (progress.length === scenario.cancelAfter && !cancelled) {
      cancelled = true;
      if (modern && session.transport === 'http') {
        // Over HTTP the modern era cancels by closing the stream: nothing more can arrive on it.
        await stream.close();
        break;
      }
      await session.notify({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: callId, reason: `mcp-golden: cancel after progress ${scenario.cancelAfter}` },
      });
      // Anything the server sends for the call from now on is a bug; wait a while to catch it.
      const stepMs = Number(scenario.arguments?.step_ms ?? 200);
      afterCancel.push(...(await drain(stream, Math.min(2000, Math.max(300, 3 * stepMs)))));
      break;
    }
    if (progress.length === scenario.dropAfter && !resumed && isProgress(message)) {
      if (modern) {
        // The modern era has no resumption: the stream is lost and the call re-issued with a new id.
        await stream.close();
        callId = newId();
        stream = await sendCall();
        resumed = true;
        continue;
      }
      if (!(await reconnect())) {
        throw new GoldenError(
          'E_TARGET',
          'Cannot resume: the stream carried no SSE event ids. Expected an id on every event; the target needs an event store for Last-Event-ID.',
        );
      }
    }
  }
  if (response && !cancelled && session.transport === 'http') await drain(stream, 1000);
  standalone?.check();
  if (response && scenario.expectError === true && !isErrorResponse(response)) {
    fail('the scenario expects an error ("expectError": true) but the call succeeded');
  }
  // A task poll's error (an unknown task id) is the task's end, not the tool refusing its arguments.
  const rejected =
    response && scenario.expectError !== true && taskPolls === undefined ? argumentRejection(response) : undefined;
  if (rejected !== undefined) throw rejectedArguments(scenario, rejected);
  return {
    progress,
    ...(response && { response }),
    afterCancel,
    cancelled,
    resumed,
    inputRounds,
    ...(taskPolls !== undefined && { taskPolls }),
  };
}

function isErrorResponse(response: JsonRpcMessage): boolean {
  return 'error' in response || isErrorResult(response);
}
