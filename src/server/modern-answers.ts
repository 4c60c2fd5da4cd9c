import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { discoverResult, modernCapabilities, modernResult, RESOURCE_LIST } from './modern-result.js';
import {
  type ConnectReferenceOptions,
  callReferenceTool,
  type ReferenceToolCall,
  type RunningCalls,
  readAuditResource,
  referenceToolList,
  type TransportHooks,
} from './reference-server.js';
import { runsAsTask, type TaskStore } from './tasks-extension.js';

/** A 2026-07-28 request as the reference server's answers read it. */
export type ModernRequest = { jsonrpc: '2.0'; id?: string | number; method?: string; params?: Record<string, unknown> };

/** The methods the reference server answers in 2026-07-28 (the tasks' with the tasks extension). */
const METHODS = new Set(['server/discover', 'tools/list', 'resources/list', 'resources/read', 'tools/call']);
const TASK_METHODS = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** Whether the reference server has a 2026-07-28 method ({@link referenceModernAnswer} answers it). */
export function referenceHasMethod(method: string, tasks: boolean): boolean {
  return METHODS.has(method) || (tasks && TASK_METHODS.has(method));
}

/**
 * What the reference server answers a 2026-07-28 request with, whatever the transport: the
 * JSON-RPC answer (`server/discover`, the lists, `resources/read`, a task of the tasks extension, a
 * task's `tasks/*`, or the tools' error), or `run` for a `tools/call` that runs ({@link runModernCall}:
 * its progress and cancel are the transport's, an SSE stream the client may close, or lines and
 * `notifications/cancelled`). Only for a method the server has ({@link referenceHasMethod}).
 */
export function referenceModernAnswer(
  message: ModernRequest,
  nameHeader: string | null,
  mcpHeaders: Record<string, string>,
  options: ConnectReferenceOptions & { readonly tasks?: TaskStore | undefined },
): Record<string, unknown> | 'run' {
  const tasks = options.checkTools ? options.tasks : undefined;
  const answer = (result: Record<string, unknown> | undefined) => ({ jsonrpc: '2.0', id: message.id, result });
  try {
    switch (message.method) {
      case 'server/discover':
        return answer(modernResult(discoverResult(modernCapabilities(tasks !== undefined)), true));
      case 'tools/list':
        return answer(modernResult({ tools: referenceToolList(options) }, true));
      case 'resources/list':
        return answer(modernResult(RESOURCE_LIST, true));
      case 'resources/read':
        return answer(modernResult(readAuditResource(options.audit, String(message.params?.uri)), true));
      case 'tools/call':
        if (!tasks || !runsAsTask(message, options)) return 'run';
        // The tasks extension: the server answers with the task, and the work runs on without the request.
        return answer({ ...modernResult(tasks.create(message, options, mcpHeaders)), resultType: 'task' });
      case 'tasks/get':
      case 'tasks/update':
      case 'tasks/cancel':
        return answer(tasks ? modernResult(tasks.answer(message, nameHeader)) : undefined);
      default:
        return answer(undefined);
    }
  } catch (thrown) {
    return modernError(message.id, thrown);
  }
}

/** The JSON-RPC error answering a request that threw the tools' `McpError` (anything else is thrown on). */
function modernError(id: unknown, thrown: unknown): Record<string, unknown> {
  if (!(thrown instanceof McpError)) throw thrown;
  const data = thrown.data === undefined ? {} : { data: thrown.data };
  return { jsonrpc: '2.0', id: id ?? null, error: { code: thrown.code, message: thrown.message, ...data } };
}

/**
 * Runs a 2026-07-28 `tools/call` of the reference tools, whatever the transport: its progress goes
 * to `notify` (the call's SSE stream, or lines), `signal` is its cancel, and the answer is returned:
 * the result, or the tools' error. `mcpHeaders` (the request's `Mcp-*` headers, over HTTP) go into
 * the audit row.
 */
export async function runModernCall(
  message: ModernRequest,
  options: ConnectReferenceOptions & TransportHooks,
  running: RunningCalls,
  signal: AbortSignal,
  notify: ReferenceToolCall['notify'],
  mcpHeaders?: Record<string, string>,
): Promise<Record<string, unknown>> {
  const id = message.id as string | number;
  const params = message.params ?? {};
  const token = (params._meta as { progressToken?: unknown } | undefined)?.progressToken;
  try {
    const progressToken = typeof token === 'string' || typeof token === 'number' ? token : undefined;
    const round = { inputResponses: params.inputResponses, requestState: params.requestState };
    const call = { name: String(params.name), arguments: params.arguments, progressToken, requestId: id, round };
    const result = await callReferenceTool(
      { ...call, sessionId: null, ...(mcpHeaders && { mcpHeaders }), signal, notify },
      options,
      running,
    );
    return { jsonrpc: '2.0', id, result: modernResult(result as Record<string, unknown>) };
  } catch (thrown) {
    return modernError(id, thrown);
  }
}
