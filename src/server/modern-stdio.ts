import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { answeringEra } from '../http/answering-era.js';
import { jsonRpcErrorOf, type ReadRequest } from '../http/read-request.js';
import { type ModernRequest, referenceModernAnswer } from './modern-answers.js';
import { modernResult } from './modern-result.js';
import {
  type ConnectReferenceOptions,
  callReferenceTool,
  noteCancelled,
  type RunningCalls,
  type TransportHooks,
} from './reference-server.js';
import type { TaskStore } from './tasks-extension.js';

type Message = ModernRequest;

/** What the 2026-07-28 side of the stdio server needs. */
export interface ModernStdioOptions extends ConnectReferenceOptions, TransportHooks {
  /** Writes one message as a line; resolves when it was handed to the stream. */
  readonly send: (message: Record<string, unknown>) => Promise<void>;
  /** The connection's tasks (tasks extension), served with the check tools. */
  readonly tasks?: TaskStore | undefined;
}

/** The 2026-07-28 side of a stdio connection: answers each message the reader gave it. */
export interface ModernStdio {
  receive(message: unknown, read: ReadRequest): void;
  /** Stops every call still running (stdin ended): none of them is answered, as `serveStdio` does. */
  close(): void;
}

/**
 * The reference server's 2026-07-28 era over stdio, as the SDK v2 2.4.0 `serveStdio` serves a
 * connection pinned to it: `server/discover`, the lists, `resources/read` and `tools/call` with the
 * same tools, progress and audit as the 2025 side; a call's progress and result are lines on the
 * one pipe; `notifications/cancelled` stops the call, which is then not answered; a method the
 * server does not have gets `-32601`.
 */
export function createModernStdio(options: ModernStdioOptions): ModernStdio {
  const running: RunningCalls = new Map();
  const aborts = new Map<string, AbortController>();
  const key = (id: unknown): string => `${typeof id}:${String(id)}`;
  const fail = (id: string | number | null, thrown: unknown): Promise<void> => {
    if (!(thrown instanceof McpError)) throw thrown;
    const data = thrown.data === undefined ? {} : { data: thrown.data };
    return options.send({ jsonrpc: '2.0', id, error: { code: thrown.code, message: thrown.message, ...data } });
  };
  const reply = (id: string | number, result: Record<string, unknown>, cacheable = false): Promise<void> =>
    options.send({ jsonrpc: '2.0', id, result: modernResult(result, cacheable) });

  const callTool = async (message: Message): Promise<void> => {
    const id = message.id as string | number;
    const params = message.params ?? {};
    const meta = params._meta as { progressToken?: unknown } | undefined;
    const token =
      typeof meta?.progressToken === 'string' || typeof meta?.progressToken === 'number'
        ? meta.progressToken
        : undefined;
    const abort = new AbortController();
    aborts.set(key(id), abort);
    try {
      const result = await callReferenceTool(
        {
          name: String(params.name),
          arguments: params.arguments,
          progressToken: token,
          requestId: id,
          sessionId: null,
          round: { inputResponses: params.inputResponses, requestState: params.requestState },
          signal: abort.signal,
          notify: async (progress) => {
            if (!abort.signal.aborted)
              await options.send({ jsonrpc: '2.0', method: 'notifications/progress', params: progress });
          },
        },
        options,
        running,
      );
      if (!abort.signal.aborted) await reply(id, result as Record<string, unknown>);
    } catch (thrown) {
      if (!abort.signal.aborted) await fail(id, thrown);
    } finally {
      aborts.delete(key(id));
    }
  };

  const answer = async (message: Message): Promise<void> => {
    const id = message.id as string | number;
    try {
      const answered = referenceModernAnswer(message, null, {}, options);
      if (answered === 'run') return await callTool(message);
      if (answered) return await options.send({ jsonrpc: '2.0', id, result: answered.result });
      await options.send(jsonRpcErrorOf(id, answeringEra('modern').unknownMethod(message.method)));
    } catch (thrown) {
      await fail(id, thrown);
    }
  };

  return {
    receive(message, read) {
      const body = message as Message;
      if (read.kind === 'notification' && body.method === 'notifications/cancelled') {
        const requestId = body.params?.requestId;
        const reason = body.params?.reason;
        noteCancelled(running, options.audit, requestId as string | number, typeof reason === 'string' ? reason : null);
        aborts.get(key(requestId))?.abort();
        return;
      }
      // Other notifications and posted responses ask for nothing: a 2026-07-28 server has no requests of its own.
      if (read.kind !== 'request') return;
      void answer(body).catch(() => undefined);
    },
    close() {
      for (const abort of aborts.values()) abort.abort();
      aborts.clear();
    },
  };
}
