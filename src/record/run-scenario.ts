import { setTimeout as sleep } from 'node:timers/promises';
import { GoldenError } from '../errors.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { isErrorResult, isResponse, progressOf } from '../transcript/json-rpc.js';
import {
  answerServerRequest,
  drain,
  handshakeIds,
  initialize,
  isServerRequest,
  listTools,
  requestResponse,
} from './client-handshake.js';
import { listAdvertised } from './list-advertised.js';
import type { Scenario } from './scenario.js';
import { type CallStep, isCallStep, type ScenarioStep } from './scenario-session.js';
import { listenStandalone, type StandaloneListener } from './standalone-listener.js';
import type { StreamedMessage, WireSession } from './wire-session.js';

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
  /** Protocol version the server answered in `initialize`. */
  readonly protocolVersion: string;
}

const isProgress = (message: JsonRpcMessage): boolean => progressOf(message) !== undefined;

/** How many times in a row the recorder reconnects to a call's stream before it gives up. */
const MAX_RECONNECTS = 10;

function describeScenario(scenario: Scenario): string {
  return scenario.name ? `"${scenario.name}"` : `tool "${scenario.tool}"`;
}

/**
 * Drives one scenario over a wire session as a real client would: initialize, initialized,
 * `tools/list`, then the call with the scenario's token and request id; answers the server's
 * requests from `answers`; cancels or drops-and-resumes after progress k; reconnects with
 * `Last-Event-ID` when the server closes or drops the call's stream early, waiting as its `retry:`
 * asks; and closes. Progress is counted on the wire, message by message. A call that ends without
 * a result (and was not cancelled on purpose) fails with `E_RECORD`.
 */
export async function runScenario(session: WireSession, scenario: Scenario): Promise<ScenarioOutcome> {
  const timeoutMs = scenario.timeoutMs ?? 30_000;
  // A plain scenario is a one-step session: its call, with id 1 unless it names one.
  const steps: readonly ScenarioStep[] = scenario.steps ?? [
    { tool: scenario.tool, requestId: scenario.requestId ?? 1 },
  ];
  const stepIds = steps.map((step, index) => step.requestId ?? STEP_ID_BASE + index);
  const ids = handshakeIds(stepIds);
  const { protocolVersion, capabilities } = await initialize(session, scenario, ids.initialize, timeoutMs);
  const standalone = await listenStandalone(session, scenario);
  await listTools(session, scenario, ids.toolsList, timeoutMs);
  await listAdvertised(session, scenario, capabilities, ids.lists, timeoutMs);
  let outcome: CallOutcome | undefined;
  for (const [index, step] of steps.entries()) {
    const id = stepIds[index] as string | number;
    if (isCallStep(step)) {
      const call = await runCall(session, callScenario(scenario, step, id), standalone, timeoutMs);
      outcome ??= call;
    } else {
      const request = { jsonrpc: '2.0', id, method: step.method, ...(step.params && { params: step.params }) };
      await requestResponse(session, scenario, request, timeoutMs);
      standalone?.check();
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
 * server's requests, cancels or drops-and-resumes after progress k, and reconnects as the server asks.
 */
async function runCall(
  session: WireSession,
  scenario: Scenario & { readonly requestId: string | number },
  standalone: StandaloneListener | undefined,
  timeoutMs: number,
): Promise<CallOutcome> {
  const requestId = scenario.requestId;
  const params: Record<string, unknown> = { name: scenario.tool, arguments: scenario.arguments ?? {} };
  if (scenario.progressToken !== undefined) params._meta = { progressToken: scenario.progressToken };
  // A server request the scenario cannot answer may have come during the handshake already.
  standalone?.check();
  const sent = session.request({ jsonrpc: '2.0', id: requestId, method: 'tools/call', params });
  let stream = await (standalone ? Promise.race([sent, standalone.failed]) : sent);

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
    if (isResponse(message)) response = message;
    else if (isProgress(message)) {
      progress.push(message);
      reconnects = 0;
    } else if (isServerRequest(message)) await answerServerRequest(session, scenario, message);
    if (progress.length === scenario.cancelAfter && !cancelled) {
      cancelled = true;
      await session.notify({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId, reason: `mcp-golden: cancel after progress ${scenario.cancelAfter}` },
      });
      // Anything the server sends for the call from now on is a bug; wait a while to catch it.
      const stepMs = Number(scenario.arguments?.step_ms ?? 200);
      afterCancel.push(...(await drain(stream, Math.min(2000, Math.max(300, 3 * stepMs)))));
      break;
    }
    if (progress.length === scenario.dropAfter && !resumed && isProgress(message)) {
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
  return { progress, ...(response && { response }), afterCancel, cancelled, resumed };
}

function isErrorResponse(response: JsonRpcMessage): boolean {
  return 'error' in response || isErrorResult(response);
}
