import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { resultOf } from '../transcript/json-rpc.js';
import { declaresTasks, TASKS_EXTENSION } from '../transcript/modern-envelope.js';
import { type ReplayExchange, requestKey } from './replay-plan.js';

/** Most tasks whose polls are counted at once; the oldest count is forgotten beyond it. */
const TASK_LIMIT = 10_000;

const startedTasks = new WeakMap<ReplayExchange, readonly string[]>();

/** The task ids an exchange's answer creates, found once per exchange rather than at every call it answers. */
function tasksStartedBy(exchange: ReplayExchange): readonly string[] {
  let ids = startedTasks.get(exchange);
  if (!ids) {
    const found: string[] = [];
    for (const event of exchange.events) {
      const result = event.message && resultOf(event.message);
      if (result?.resultType === 'task' && typeof result.taskId === 'string') found.push(result.taskId);
    }
    ids = found;
    startedTasks.set(exchange, ids);
  }
  return ids;
}

/**
 * Serves a recorded task's polls in order (tasks extension, 2026-07-28). Every `tasks/get` of a task
 * is the same request, so matching alone would answer each with the first recorded poll: here the
 * n-th live `tasks/get` for a task id gets the n-th recorded one, and a poll past the recording gets
 * the last (the terminal status). Serving the call that created the task again starts its polls over.
 * The count is per task id, shared by every client of the replay.
 */
export class TaskPolls {
  /** Polls served so far, by task id. */
  private readonly served = new Map<string, number>();

  /** The recorded answer for a live `tasks/get`, or `undefined` for any other request (matched as usual). */
  choose(
    exchanges: readonly ReplayExchange[],
    httpMethod: string,
    message: JsonRpcMessage,
  ): ReplayExchange | undefined {
    if (message.method !== 'tasks/get') return undefined;
    const taskId = (message.params as { taskId?: unknown } | undefined)?.taskId;
    if (typeof taskId !== 'string') return undefined;
    const key = requestKey(httpMethod, message);
    const recorded = exchanges.filter((e) => e.key === key);
    if (recorded.length === 0) return undefined;
    const n = this.served.get(taskId) ?? 0;
    this.served.delete(taskId);
    this.served.set(taskId, n + 1);
    if (this.served.size > TASK_LIMIT) this.served.delete(this.served.keys().next().value as string);
    return recorded[Math.min(n, recorded.length - 1)];
  }

  /** Notes an exchange being served: one that answers with a task starts that task's polls over. */
  started(exchange: ReplayExchange): void {
    for (const taskId of tasksStartedBy(exchange)) this.served.delete(taskId);
  }
}

/** True when a recorded exchange answers with a task (`resultType: "task"`). */
function answersWithTask(exchange: ReplayExchange | undefined): boolean {
  return exchange?.events.some((e) => e.message && resultOf(e.message)?.resultType === 'task') ?? false;
}

/**
 * The `-32021` error (Missing Required Client Capability) for a request whose recorded answer is a
 * task when the live client does not declare the tasks extension: a server must not send it a task,
 * and the recording holds no other answer. `undefined` when the request may be answered.
 */
export function taskRefusal(
  exchange: ReplayExchange | undefined,
  message: JsonRpcMessage,
): { code: number; message: string; data: unknown } | undefined {
  if (!answersWithTask(exchange) || declaresTasks(message)) return undefined;
  return {
    code: -32021,
    message: `Missing required client capability: the recorded answer to this ${String(message.method)} is a task (resultType "task"), and the request does not declare the ${TASKS_EXTENSION} extension. Declare it in _meta["io.modelcontextprotocol/clientCapabilities"].extensions, or record the call from a client without it.`,
    data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  };
}
