import { setTimeout as sleep } from 'node:timers/promises';
import { GoldenError } from '../errors.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { resultOf } from '../transcript/json-rpc.js';
import { requestResponse } from './client-handshake.js';
import { type EraStrategy, legacyTaskOf } from './era-strategy.js';
import { describeScenario, type Scenario } from './scenario.js';
import type { WireSession } from './wire-session.js';

/** The statuses after which a task changes no more (tasks extension). */
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** The longest wait between two polls, whatever `pollIntervalMs` asks: a recording must end. */
export const MAX_POLL_WAIT_MS = 5000;

/** The wait between polls when a task names no `pollIntervalMs`. */
const DEFAULT_POLL_MS = 500;

/** How a task call ended, as the client saw it. */
export interface TaskOutcome {
  /** The `tasks/get` answer at a terminal status (the result or error inlined), or the error a poll got. */
  readonly response: JsonRpcMessage | undefined;
  /** `tasks/cancel` was sent (the scenario's `cancelAfter`). */
  readonly cancelled: boolean;
  /** When it was sent, `performance.now()`. */
  readonly cancelledAt?: number;
  /** `tasks/get` requests sent. */
  readonly polls: number;
}

/**
 * Follows a task a server created for a call to its end. The 2026-07-28 tasks extension
 * (`resultType: "task"`): `tasks/get` every `pollIntervalMs` (the latest the server named, at most
 * {@link MAX_POLL_WAIT_MS}), each its own request with a new id, the envelope and `Mcp-Name:
 * <taskId>`, until a terminal status, whose answer inlines the result. The 2025-11-25 experimental
 * tasks (a legacy `strategy`): the same polls every `pollInterval`, then `tasks/result` for the result
 * once the task completed (or asks for input: the server's requests then come on that stream and
 * are answered from `answers`). With `cancelAfter: k`, `tasks/cancel` after the k-th poll that found
 * the task still running, then polls on until it ends. Every request lands in the golden. A task
 * that does not end within the scenario's `timeoutMs` fails with `E_RECORD`.
 */
export async function followTask(
  session: WireSession,
  scenario: Scenario,
  created: JsonRpcMessage,
  newId: () => number,
  timeoutMs: number,
  strategy: EraStrategy,
): Promise<TaskOutcome> {
  const modern = strategy.era === 'modern';
  const fail = (problem: string): never => {
    throw new GoldenError(
      'E_RECORD',
      `Recording ${describeScenario(scenario)} failed: ${problem}. Expected the task to reach completed, failed or cancelled. Check the server's log, or raise "timeoutMs" for a longer task.`,
    );
  };
  const first = modern ? resultOf(created) : legacyTaskOf(created);
  const taskId = first?.taskId;
  if (typeof taskId !== 'string' || taskId === '')
    return fail(`the server answered resultType "task" without a taskId (got ${JSON.stringify(first ?? null)})`);
  const ask = (method: string): Promise<JsonRpcMessage | undefined> =>
    requestResponse(
      session,
      scenario,
      strategy.frame({ jsonrpc: '2.0', id: newId(), method, params: { taskId } }, scenario),
      timeoutMs,
    );
  const deadline = Date.now() + timeoutMs;
  let latest: Record<string, unknown> | undefined = first;
  let running = 0;
  let polls = 0;
  let cancelled = false;
  let cancelledAt: number | undefined;
  const outcome = (response: JsonRpcMessage): TaskOutcome => ({
    response,
    cancelled,
    ...(cancelledAt !== undefined && { cancelledAt }),
    polls,
  });
  /** 2025-11-25: the result is fetched with tasks/result once the task completed or waits for input. */
  const finish = async (answer: JsonRpcMessage): Promise<TaskOutcome> => {
    const status = String(resultOf(answer)?.status);
    if (modern || !(status === 'completed' || status === 'input_required')) return outcome(answer);
    const result = await ask('tasks/result');
    if (!result) return fail(`the tasks/result stream for task ${taskId} ended without an answer`);
    return outcome(result);
  };
  const ends = (status: unknown): boolean => TERMINAL.has(String(status)) || (!modern && status === 'input_required');
  while (!ends(latest?.status)) {
    if (scenario.cancelAfter !== undefined && !cancelled && running >= scenario.cancelAfter) {
      cancelled = true;
      cancelledAt = performance.now();
      await ask('tasks/cancel');
    }
    if (Date.now() > deadline) fail(`task ${taskId} was still "${String(latest?.status)}" after ${timeoutMs} ms`);
    const named = modern ? latest?.pollIntervalMs : latest?.pollInterval;
    const wait = typeof named === 'number' && named >= 0 ? named : DEFAULT_POLL_MS;
    await sleep(Math.min(wait, MAX_POLL_WAIT_MS));
    const answer = await ask('tasks/get');
    polls++;
    if (!answer) return fail(`the tasks/get stream for task ${taskId} ended without an answer`);
    if ('error' in answer) return outcome(answer);
    latest = resultOf(answer);
    if (ends(latest?.status)) return finish(answer);
    running++;
  }
  // Created at a terminal status already: there is nothing to poll.
  return modern ? outcome(created) : finish(created);
}
