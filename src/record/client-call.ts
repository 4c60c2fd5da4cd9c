import { setTimeout as sleep } from 'node:timers/promises';
import { GoldenError, isGoldenError } from '../errors.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { isResponse, progressOf, resultOf } from '../transcript/json-rpc.js';
import type { Arrival } from '../transcript/read-calls.js';
import { answerServerRequest, isServerRequest } from './client-handshake.js';
import type { EraStrategy } from './era-strategy.js';
import { inputResponsesFor, resultTypeOf } from './modern-era.js';
import { describeScenario, type Scenario } from './scenario.js';
import type { StandaloneListener } from './standalone-listener.js';
import { followTask } from './task-polling.js';
import type { CallStream, StreamedMessage, WireSession } from './wire-session.js';

/**
 * A message as a live client received it: the fields of a transcript's {@link Arrival} a client
 * knows while it reads (the message, and its time in ms after the request was sent).
 */
export type LiveArrival = Pick<Arrival, 'message' | 'atMs'>;

/** One call a session client makes, and how the client behaves while it runs. */
export interface ClientCall {
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly id: string | number;
  /** `_meta.progressToken` sent with the call. */
  readonly token?: string | number;
  /** Cancel once this many progress notifications arrived. */
  readonly cancelAfterProgress?: number;
  /** Cancel this many ms after the request was sent, progress or not. */
  readonly cancelAfterMs?: number;
  /** Drop the stream after this many progress notifications: legacy resumes, modern re-issues. */
  readonly dropAfterProgress?: number;
  /** Read nothing for this long after sending the request (a slow client). */
  readonly readDelayMs?: number;
  /** How long to keep reading after a cancel, from when it was sent, to catch what must not come. */
  readonly afterCancelMs: number;
  /** The `reason` of the `notifications/cancelled` the client sends. */
  readonly cancelReason: string;
  /** Reconnect with `Last-Event-ID` when a server closes or breaks the call's stream early. */
  readonly reconnect: boolean;
  /** The scenario naming the call in errors and answering its rounds. @default the client's */
  readonly scenario?: Scenario;
  /** The tool's `Mcp-Param-*` headers (modern era), from its `tools/list` entry. */
  readonly paramHeaders?: Readonly<Record<string, string>>;
  /** The standalone stream being listened on, whose failure ends the call. */
  readonly standalone?: StandaloneListener;
  /** 2025-11-25 experimental tasks: sent as the call's `params.task`, asking the server for a task. */
  readonly task?: Readonly<Record<string, unknown>>;
  /**
   * Follow a task the server answers the call with (`tasks/get` polls to its end, `tasks/cancel` after
   * the scenario's `cancelAfter` polls): the task's terminal answer is the call's response.
   */
  readonly followTasks?: boolean;
}

/** How reading a call ended. */
export type CallEnd = 'response' | 'cancelled' | 'closed' | 'broken' | 'failed';

/** What the client saw of one call, each message timed from when the request was sent. */
export interface CallArrivals {
  /** Wall-clock time the request was sent, in ms since the epoch. */
  readonly startedEpochMs: number;
  readonly progress: readonly LiveArrival[];
  readonly response?: LiveArrival;
  /** Messages for the call that arrived after the cancel was sent. */
  readonly afterCancel: readonly LiveArrival[];
  /** Ms from the request to the cancel (legacy: `notifications/cancelled`; modern over HTTP: the stream's close). */
  readonly cancelAtMs?: number;
  /** The stream was resumed (legacy) or the call re-issued (modern). */
  readonly resumed: boolean;
  /** `input_required` rounds answered (modern). */
  readonly inputRounds: number;
  /** `tasks/get` polls sent, for a call the server answered with a task that was followed. */
  readonly taskPolls?: number;
  readonly end: CallEnd;
  /** `failed`: what failed (sending, a timeout, a server gone, an unanswerable request); `broken`: the connection's error. */
  readonly error?: unknown;
}

/** What a call needs of its session client. */
export interface CallRun {
  readonly wire: WireSession;
  readonly strategy: EraStrategy;
  readonly timeoutMs: number;
  /** Answer the server's requests and `input_required` rounds from the scenario's `answers`. */
  readonly answerServer: boolean;
  /** How long an HTTP stream is still read after its response (0: dropped at the response). */
  readonly settleMs: number;
  readonly scenario: Scenario;
  send(
    message: JsonRpcMessage,
    paramHeaders?: Readonly<Record<string, string>>,
    scenario?: Scenario,
  ): Promise<CallStream>;
  newId(): number;
  drain(stream: CallStream, ms: number): Promise<JsonRpcMessage[]>;
}

/** How many times in a row the client reconnects to a call's stream before it gives up. */
const MAX_RECONNECTS = 10;

/** How many `input_required` rounds one call may take before the client gives up. */
const MAX_INPUT_ROUNDS = 10;

/** A call's failure as the recorder words it: the scenario, the problem, the fix. */
export function callFailure(scenario: Scenario, problem: string): GoldenError {
  return new GoldenError(
    'E_RECORD',
    `Recording ${describeScenario(scenario)} failed: ${problem}. Expected the tools/call result. Check the server's log; a scenario may cancel on purpose with "cancelAfter".`,
  );
}

/**
 * Runs one call: sends it with its token and id, answers the server's requests or `input_required`
 * rounds (each retry a new request with a new id), cancels after progress k or after ms (legacy:
 * `notifications/cancelled`; modern over HTTP: closes the stream) and reads on to catch what must
 * not come, drops the stream after progress k (legacy: resumes with `Last-Event-ID`; modern:
 * re-issues with a new id), and reconnects as the server's `retry:` asks when it closes the stream
 * early. Every message is timed from sending. Never throws: what failed is in `error`.
 */
export async function runCall(client: CallRun, plan: ClientCall): Promise<CallArrivals> {
  const { wire, timeoutMs } = client;
  const scenario = plan.scenario ?? client.scenario;
  const { strategy } = client;
  const params: Record<string, unknown> = { name: plan.tool, arguments: plan.arguments };
  if (plan.token !== undefined) params._meta = { progressToken: plan.token };
  if (plan.task !== undefined && strategy.era === 'legacy') params.task = plan.task;
  let callId: string | number = plan.id;
  let roundParams: Record<string, unknown> = {};
  const sendCall = (): Promise<CallStream> =>
    client.send(
      { jsonrpc: '2.0', id: callId, method: 'tools/call', params: { ...params, ...roundParams } },
      plan.paramHeaders,
      scenario,
    );
  const startedEpochMs = Date.now();
  const t0 = performance.now();
  const at = (): number => performance.now() - t0;
  const progress: LiveArrival[] = [];
  const afterCancel: LiveArrival[] = [];
  let response: LiveArrival | undefined;
  let cancelAtMs: number | undefined;
  let resumed = false;
  let inputRounds = 0;
  let taskPolls: number | undefined;
  let stream: CallStream | undefined;
  let requested: Promise<CallStream> | undefined;
  const seen = (end: CallEnd, error?: unknown): CallArrivals => ({
    startedEpochMs,
    progress,
    ...(response && { response }),
    afterCancel,
    ...(cancelAtMs !== undefined && { cancelAtMs }),
    resumed,
    inputRounds,
    ...(taskPolls !== undefined && { taskPolls }),
    end,
    ...(error !== undefined && { error }),
  });
  const cancel = async (): Promise<void> => {
    if (cancelAtMs !== undefined) return;
    cancelAtMs = at();
    if (strategy.cancel(wire.transport) === 'close') {
      // The modern era cancels by closing the call's stream (once its headers came, if they had not yet).
      if (stream) await stream.close();
      else void requested?.then((late) => late.close()).catch(() => undefined);
      return;
    }
    await wire.notify({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: callId, reason: plan.cancelReason },
    });
  };
  // Timed from sending: a server that holds back even the response headers must not delay the cancel.
  const timer =
    plan.cancelAfterMs !== undefined ? setTimeout(() => void cancel().catch(() => {}), plan.cancelAfterMs) : undefined;
  const standalone = plan.standalone;
  const raced = <T>(promise: Promise<T>): Promise<T> =>
    standalone ? Promise.race([promise, standalone.failed]) : promise;
  try {
    // A server request the scenario cannot answer may have come during the handshake already.
    standalone?.check();
    requested = sendCall();
    // A timed cancel stops the wait too: a server may hold back even the headers of a cancelled call.
    stream =
      plan.cancelAfterMs === undefined
        ? await raced(requested)
        : await Promise.race([requested, sleep(plan.cancelAfterMs + plan.afterCancelMs + 200).then(() => undefined)]);
  } catch (error) {
    if (timer) clearTimeout(timer);
    return seen('failed', error);
  }
  if (!stream) {
    requested.then((late) => late.drop()).catch(() => undefined);
    return seen('failed', new Error('no response headers arrived for the call, before or after the cancel'));
  }
  let lastEventId: string | undefined;
  let retryMs: number | undefined;
  let reconnects = 0;
  /** Reconnects to the call's stream after the last event seen; false when the stream cannot resume. */
  const reconnect = async (): Promise<boolean> => {
    if (!plan.reconnect || wire.transport !== 'http' || lastEventId === undefined || !stream) return false;
    if (++reconnects > MAX_RECONNECTS) {
      throw callFailure(scenario, `the stream closed ${MAX_RECONNECTS} times in a row without a result`);
    }
    await stream.drop();
    // Wait as long as the server's `retry:` asks before reconnecting, as the spec tells clients to.
    await sleep(Math.min(retryMs ?? 1000, 5000));
    stream = await wire.resume(lastEventId);
    resumed = true;
    return true;
  };
  const cancelling = (): boolean => cancelAtMs !== undefined || plan.cancelAfterMs !== undefined;
  /** The next message; `undefined` at the stream's end (or the wait after a cancel); `broken` with the error. */
  const read = async (live: CallStream, wait: number): Promise<StreamedMessage | undefined | { broken: unknown }> => {
    try {
      return await raced(live.next(wait));
    } catch (error) {
      if (isGoldenError(error, 'E_TIMEOUT') && cancelling()) return undefined;
      if (error instanceof GoldenError) throw error;
      return { broken: error };
    }
  };
  let end: CallEnd = 'closed';
  let error: unknown;
  try {
    if (plan.readDelayMs) await sleep(plan.readDelayMs);
    for (;;) {
      const live: CallStream = stream;
      // After a cancel, wait only as long as it takes to catch what must not come.
      let wait = timeoutMs;
      if (cancelAtMs !== undefined) wait = Math.max(0, cancelAtMs + plan.afterCancelMs - at());
      else if (plan.cancelAfterMs !== undefined) {
        wait = Math.min(timeoutMs, Math.max(1, plan.cancelAfterMs + plan.afterCancelMs - at()));
      }
      if (cancelAtMs !== undefined && wait === 0) break;
      const next = await read(live, wait);
      lastEventId = live.lastEventId ?? lastEventId;
      retryMs = live.retryMs ?? retryMs;
      if (next === undefined || 'broken' in next) {
        if (cancelAtMs === undefined && (await reconnect())) continue;
        if (next !== undefined) {
          end = 'broken';
          error = next.broken;
        }
        break;
      }
      const { message } = next;
      const arrival: LiveArrival = { message, atMs: at() };
      if (cancelAtMs !== undefined) {
        afterCancel.push(arrival);
        continue;
      }
      if (
        isResponse(message) &&
        strategy.inputRounds &&
        client.answerServer &&
        resultTypeOf(message) === 'input_required'
      ) {
        if (++inputRounds > MAX_INPUT_ROUNDS) {
          throw callFailure(scenario, `the server asked for input ${MAX_INPUT_ROUNDS} times in a row`);
        }
        const inputResponses = inputResponsesFor(scenario, message);
        const requestState = resultOf(message)?.requestState;
        await client.drain(live, 1000);
        // The retry is a new request: a new id, the answers, and the server's state echoed verbatim.
        callId = client.newId();
        roundParams = { inputResponses, ...(typeof requestState === 'string' && { requestState }) };
        stream = await sendCall();
        continue;
      }
      if (isResponse(message) && plan.followTasks && strategy.isTask(message)) {
        // A task: followed with tasks/get to its end, whose answer (the result inlined) ends the call.
        const task = await followTask(wire, scenario, message, () => client.newId(), timeoutMs, strategy);
        taskPolls = task.polls;
        // The cancel's time is when tasks/cancel was sent, polls before the task ended.
        if (task.cancelled) cancelAtMs = (task.cancelledAt ?? performance.now()) - t0;
        if (task.response) response = { message: task.response, atMs: at() };
        end = task.response ? 'response' : 'closed';
        break;
      }
      if (isResponse(message)) {
        response = arrival;
        end = 'response';
        break;
      }
      const isProgress = progressOf(message) !== undefined;
      if (isProgress) {
        progress.push(arrival);
        reconnects = 0;
      } else if (isServerRequest(message) && client.answerServer) await answerServerRequest(wire, scenario, message);
      if (plan.cancelAfterProgress !== undefined && progress.length === plan.cancelAfterProgress) {
        await cancel();
        continue;
      }
      if (isProgress && progress.length === plan.dropAfterProgress && !resumed) {
        if (strategy.afterDrop === 'reissue') {
          // The modern era has no resumption: the stream is lost and the call re-issued with a new id.
          await live.close();
          callId = client.newId();
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
    if (cancelAtMs !== undefined) end = 'cancelled';
    if (end === 'response' && wire.transport === 'http' && client.settleMs > 0)
      await client.drain(stream, client.settleMs);
  } catch (thrown) {
    end = 'failed';
    error = thrown;
  } finally {
    if (timer) clearTimeout(timer);
    await stream.drop().catch(() => undefined);
  }
  return seen(end, error);
}
