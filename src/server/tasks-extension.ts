import { randomUUID } from 'node:crypto';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { isGoldenError } from '../errors.js';
import { declaresTasks, ENVELOPE_KEYS, TASKS_EXTENSION } from '../transcript/modern-envelope.js';
import type { AuditEntry, AuditLog } from './audit-log.js';
import { CHECK_TOOLS, TASK_TOOL } from './check-tools.js';
import { type ConnectReferenceOptions, callReferenceTool, noteCancelled, RunningCalls } from './reference-server.js';

/** How long a task is kept after it was created, in ms (its `ttlMs`). */
export const TASK_TTL_MS = 300_000;

/** Most tasks kept at once; beyond it the oldest finished one is forgotten. */
const TASK_LIMIT = 1000;

type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** True for a task status after which nothing changes (`completed`, `failed`, `cancelled`). */
export const isTerminalStatus = (status: unknown): boolean => typeof status === 'string' && TERMINAL.has(status);

interface StoredTask {
  readonly taskId: string;
  status: TaskStatus;
  statusMessage: string;
  readonly createdAt: string;
  lastUpdatedAt: string;
  readonly createdAtMs: number;
  readonly pollIntervalMs: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
  readonly controller: AbortController;
  readonly running: RunningCalls;
  readonly requestId: string | number;
  readonly audit: AuditLog;
  entry?: AuditEntry;
}

/** A JSON-RPC request as the modern side hands it over. */
interface TaskMessage {
  readonly [key: string]: unknown;
  readonly id?: string | number;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
}

/** True when a `tools/call` should run as a task: the task tool, served, and the client declared the extension. */
export function runsAsTask(message: TaskMessage, options: Pick<ConnectReferenceOptions, 'checkTools'>): boolean {
  return (
    options.checkTools === true &&
    message.method === 'tools/call' &&
    message.params?.name === TASK_TOOL &&
    declaresTasks(message)
  );
}

const invalidParams = (text: string): McpError => {
  const error = new McpError(ErrorCode.InvalidParams, text);
  error.message = text;
  return error;
};

/**
 * The reference server's tasks (tasks extension, 2026-07-28 only): `tools/call` of `task_steps`
 * from a client that declares the extension creates a task that runs in the background;
 * `tasks/get` answers its state (the result or error inlined at a terminal status), `tasks/cancel`
 * acknowledges and stops the work cooperatively, `tasks/update` acknowledges (the tool asks for no
 * input). Each task's work is one audit row, with the `tasks/*` requests that reached it.
 */
export class TaskStore {
  private readonly tasks = new Map<string, StoredTask>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Creates the task for a `tools/call` and starts its work; returns the `CreateTaskResult` fields.
   * Bad arguments throw invalid params, as the call would, and create no task.
   */
  create(
    message: TaskMessage,
    options: ConnectReferenceOptions,
    mcpHeaders: Readonly<Record<string, string>>,
  ): Record<string, unknown> {
    const params = message.params ?? {};
    let pollIntervalMs: number;
    try {
      pollIntervalMs = (CHECK_TOOLS.get(TASK_TOOL)?.parse(params.arguments).poll_ms as number | undefined) ?? 50;
    } catch (error) {
      throw invalidParams(isGoldenError(error) ? error.message : String(error));
    }
    this.prune();
    const at = new Date(this.now()).toISOString();
    const task: StoredTask = {
      taskId: randomUUID(),
      status: 'working',
      statusMessage: 'The task is working.',
      createdAt: at,
      lastUpdatedAt: at,
      createdAtMs: this.now(),
      pollIntervalMs,
      controller: new AbortController(),
      running: new RunningCalls(),
      requestId: message.id as string | number,
      audit: options.audit,
    };
    this.tasks.set(task.taskId, task);
    const meta = params._meta as { progressToken?: unknown } | undefined;
    const token = meta?.progressToken;
    const update = (status: TaskStatus, statusMessage: string): void => {
      task.status = status;
      task.statusMessage = statusMessage;
      task.lastUpdatedAt = new Date(this.now()).toISOString();
    };
    void callReferenceTool(
      {
        name: TASK_TOOL,
        arguments: params.arguments,
        progressToken: typeof token === 'string' || typeof token === 'number' ? token : undefined,
        requestId: task.requestId,
        sessionId: null,
        mcpHeaders,
        taskId: task.taskId,
        noProgress: true,
        signal: task.controller.signal,
        onAudit: (entry) => {
          task.entry = entry;
        },
        onStep: (i) => update('working', `step ${i}`),
        notify: async () => undefined,
      },
      options,
      task.running,
    ).then(
      (result) => {
        if (task.controller.signal.aborted) update('cancelled', 'Cancelled by tasks/cancel.');
        else {
          task.result = result as Record<string, unknown>;
          update('completed', 'The task completed.');
        }
      },
      (thrown: unknown) => {
        task.error =
          thrown instanceof McpError
            ? { code: thrown.code, message: thrown.message }
            : { code: ErrorCode.InternalError, message: String(thrown) };
        update('failed', `The task failed: ${task.error.message}`);
      },
    );
    return this.view(task);
  }

  /**
   * Answers `tasks/get`, `tasks/update` or `tasks/cancel` (the result before the modern
   * `resultType: "complete"` is added), or throws the protocol's error: `-32021` for a client that
   * does not declare the extension, `-32602` for an unknown task id.
   */
  answer(message: TaskMessage, mcpName: string | null): Record<string, unknown> {
    if (!declaresTasks(message)) {
      const error = new McpError(-32021, 'Missing required client capability', {
        requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
      });
      error.message = `Missing required client capability: ${message.method} needs the ${TASKS_EXTENSION} extension in _meta["${ENVELOPE_KEYS.clientCapabilities}"].extensions.`;
      throw error;
    }
    const taskId = message.params?.taskId;
    const task = typeof taskId === 'string' ? this.tasks.get(taskId) : undefined;
    if (!task) throw invalidParams(`Failed to retrieve task: Task not found (taskId ${JSON.stringify(taskId)}).`);
    if (message.method === 'tasks/cancel' && !isTerminalStatus(task.status)) {
      noteCancelled(task.running, task.audit, task.requestId, 'tasks/cancel');
      task.controller.abort();
    }
    if (task.entry)
      task.audit.noteTaskRequest(task.entry, {
        method: String(message.method),
        requestId: message.id as string | number,
        mcpName,
        status: task.status,
      });
    return message.method === 'tasks/get' ? this.view(task) : {};
  }

  /** Stops every task still working. */
  close(): void {
    for (const task of this.tasks.values()) task.controller.abort();
    this.tasks.clear();
  }

  /** A task as `tasks/get` shows it: the result or error inlined at a terminal status. */
  private view(task: StoredTask): Record<string, unknown> {
    return {
      taskId: task.taskId,
      status: task.status,
      statusMessage: task.statusMessage,
      createdAt: task.createdAt,
      lastUpdatedAt: task.lastUpdatedAt,
      ttlMs: TASK_TTL_MS,
      pollIntervalMs: task.pollIntervalMs,
      ...(task.status === 'completed' && task.result && { result: task.result }),
      ...(task.status === 'failed' && task.error && { error: task.error }),
    };
  }

  /** Forgets tasks past their TTL, and the oldest finished ones beyond the limit. */
  private prune(): void {
    const now = this.now();
    for (const [id, task] of this.tasks) {
      if (now - task.createdAtMs > TASK_TTL_MS && isTerminalStatus(task.status)) this.tasks.delete(id);
    }
    for (const [id, task] of this.tasks) {
      if (this.tasks.size < TASK_LIMIT) break;
      if (isTerminalStatus(task.status)) this.tasks.delete(id);
    }
  }
}
