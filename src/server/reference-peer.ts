import { type AnswerSink, answeringEra, jsonAnswer, writeAnswer } from '../http/answering-era.js';
import type { PerRequestPeer } from '../http/per-request-side.js';
import { type ModernRequest, referenceHasMethod, referenceModernAnswer, runModernCall } from './modern-answers.js';
import { modernCapabilities } from './modern-result.js';
import {
  type ConnectReferenceOptions,
  noteCancelled,
  REFERENCE_SERVER_INFO,
  RunningCalls,
  referenceParamHeaders,
} from './reference-server.js';
import type { TaskStore } from './tasks-extension.js';

/** How the reference server answers a modern-era (2026-07-28) request. */
export interface ModernServeOptions extends ConnectReferenceOptions {
  /** One JSON body per request: progress is dropped, as the SDK's `json` response mode does. */
  readonly jsonResponse: boolean;
  /** Send `X-Accel-Buffering: no` on SSE responses. */
  readonly accelHeader: boolean;
  /** The server's tasks (tasks extension), served with the check tools: `task_steps` runs as one. */
  readonly tasks?: TaskStore | undefined;
  /** Refuse a `tools/call` whose `Mcp-Param-*` headers disagree with its marked arguments (-32020). @default true */
  readonly enforceParamHeaders?: boolean;
}

type Message = ModernRequest;

/**
 * The reference server as the 2026-07-28 answering side's peer: no session, `server/discover`,
 * `tools/list`, `resources/*` and `tools/call` with the same tools, progress and audit as the legacy
 * side. The era's rules (notifications, `Mcp-Param-*`, `subscriptions/listen`, methods it lacks, the
 * cancel) are `answerPerRequest`'s; this peer says only where the answers come from.
 */
export function referencePeer(options: ModernServeOptions): PerRequestPeer<AnswerSink> {
  const tasks = options.checkTools ? options.tasks : undefined;
  const capabilities = modernCapabilities(tasks !== undefined);
  return {
    hasMethod: (method) => referenceHasMethod(method, tasks !== undefined),
    paramHeaders: (tool) =>
      options.enforceParamHeaders === false ? undefined : referenceParamHeaders(tool, options.checkTools === true),
    listening: () => ({
      capabilities: { ...capabilities },
      serverInfo: { ...REFERENCE_SERVER_INFO },
      accel: options.accelHeader,
    }),
    answer(message, read, request, sink, cancelled) {
      const served = { ...options, tasks };
      const mcpHeaders = mcpHeadersOf(request.headers);
      // The peer has every method the rules let through (hasMethod): an answer, or a call to run.
      const answered = referenceModernAnswer(message as Message, read.nameHeader ?? null, mcpHeaders, served);
      if (answered === 'run') return callTool(sink, message as Message, served, mcpHeaders, cancelled);
      writeAnswer(sink, jsonAnswer(200, answered));
    },
  };
}

/** The `Mcp-*` headers of a request (`MCP-Protocol-Version` included), names lower-cased. */
function mcpHeadersOf(headers: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (name.startsWith('mcp-') && value !== undefined) out[name] = value;
  return out;
}

async function callTool(
  sink: AnswerSink,
  message: Message,
  options: ModernServeOptions,
  mcpHeaders: Record<string, string>,
  cancelled: AbortSignal,
): Promise<void> {
  const id = message.id as string | number;
  // One request, one set of running calls: with no sessions, two clients may use the same id.
  const running = new RunningCalls();
  // The modern era's cancel: the client closed the stream.
  cancelled.addEventListener('abort', () => noteCancelled(running, options.audit, id, 'the client closed the stream'));
  let streaming = false;
  const event = (payload: unknown): void => {
    if (!streaming) {
      streaming = true;
      sink.head(200, answeringEra('modern').streamHeaders(options.accelHeader));
    }
    sink.write(`event: message\ndata: ${JSON.stringify(payload)}\n\n`);
  };
  const answer = await runModernCall(
    message,
    options,
    running,
    cancelled,
    async (progress) => {
      if (options.jsonResponse || cancelled.aborted) return;
      event({ jsonrpc: '2.0', method: 'notifications/progress', params: progress });
    },
    mcpHeaders,
  );
  if (cancelled.aborted) return;
  if (!streaming) {
    writeAnswer(sink, jsonAnswer(200, answer));
    return;
  }
  event(answer);
  sink.end();
}
