import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { answerListen, LISTEN_STREAM_HEADERS, listenEvent } from '../http/listen-subscription.js';
import { jsonRpcErrorOf, methodNotFound, type ReadRequest } from '../http/read-request.js';
import { paramHeaderMismatch } from '../transcript/modern-envelope.js';
import { discoverResult, modernCapabilities, modernResult, RESOURCE_LIST } from './modern-result.js';
import {
  type ConnectReferenceOptions,
  callReferenceTool,
  noteCancelled,
  REFERENCE_SERVER_INFO,
  type RunningCalls,
  readAuditResource,
  referenceParamHeaders,
  referenceToolList,
} from './reference-server.js';
import { runsAsTask, type TaskStore } from './tasks-extension.js';

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

type Message = { jsonrpc: '2.0'; id?: string | number; method?: string; params?: Record<string, unknown> };

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const error = (id: unknown, code: number, message: string, data?: unknown) => ({
  jsonrpc: '2.0',
  id: id ?? null,
  error: { code, message, ...(data !== undefined && { data }) },
});

/**
 * Answers one modern-era POST: no session, `server/discover`, `tools/list`, `resources/*` and
 * `tools/call` with the same tools, progress and audit as the legacy side. A call's progress goes
 * on its own SSE stream, opened at its first notification (a call without one gets a JSON body);
 * the client closing that stream cancels the call, and its audit row says so.
 */
export async function serveModern(
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  read: ReadRequest,
  options: ModernServeOptions,
): Promise<void> {
  const message = body as Message;
  if (read.kind !== 'request') {
    res.writeHead(202).end();
    return;
  }
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers))
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  const mismatch = toolParamMismatch(headers, message, options);
  if (mismatch !== undefined) {
    send(res, 400, error(message.id, -32020, `Header mismatch: ${mismatch}.`));
    return;
  }
  const tasks = options.checkTools ? options.tasks : undefined;
  const reply = (result: Record<string, unknown>, cacheable = false) =>
    send(res, 200, { jsonrpc: '2.0', id: message.id, result: modernResult(result, cacheable) });
  const capabilities = modernCapabilities(tasks !== undefined);
  try {
    switch (message.method) {
      case 'server/discover':
        reply(discoverResult(capabilities), true);
        return;
      case 'subscriptions/listen':
        listen(res, message, capabilities, options);
        return;
      case 'tools/list':
        reply({ tools: referenceToolList(options) }, true);
        return;
      case 'resources/list':
        reply(RESOURCE_LIST, true);
        return;
      case 'resources/read':
        reply(readAuditResource(options.audit, String(message.params?.uri)), true);
        return;
      case 'tools/call':
        if (tasks && runsAsTask(message, options)) {
          // The tasks extension: the server answers with the task, and the work runs on without the request.
          const created = tasks.create(message, options, mcpHeadersOf(headers));
          send(res, 200, { jsonrpc: '2.0', id: message.id, result: { ...modernResult(created), resultType: 'task' } });
          return;
        }
        await callTool(res, message, options, mcpHeadersOf(headers));
        return;
      case 'tasks/get':
      case 'tasks/update':
      case 'tasks/cancel':
        if (!tasks) {
          send(res, 404, jsonRpcErrorOf(message.id ?? null, methodNotFound(message.method)));
          return;
        }
        reply(tasks.answer(message, read.nameHeader ?? null));
        return;
      default:
        // A method this server does not have: the SDK v2 server's method registry answers 404.
        send(res, 404, jsonRpcErrorOf(message.id ?? null, methodNotFound(message.method)));
    }
  } catch (thrown) {
    if (!(thrown instanceof McpError)) throw thrown;
    send(res, 200, error(message.id, thrown.code, thrown.message, thrown.data));
  }
}

/**
 * `subscriptions/listen`, as the SDK v2 server answers it: this server's tool and resource lists never
 * change and it offers no resource subscriptions, so nothing is honored, and the stream holds the
 * acknowledgement and the result that ends the subscription.
 */
function listen(res: ServerResponse, message: Message, capabilities: object, options: ModernServeOptions): void {
  const answer = answerListen(
    message.id as string | number,
    message.params,
    { ...capabilities },
    {
      ...REFERENCE_SERVER_INFO,
    },
  );
  if (answer.kind === 'refused') {
    send(res, 200, error(message.id, answer.code, answer.message));
    return;
  }
  const { 'x-accel-buffering': accel, ...plain } = LISTEN_STREAM_HEADERS;
  res.writeHead(200, options.accelHeader && accel !== undefined ? { ...plain, 'x-accel-buffering': accel } : plain);
  for (const event of answer.messages) res.write(listenEvent(event));
  if (!answer.holdOpen) res.end();
}

/**
 * Why a `tools/call`'s `Mcp-Param-*` headers disagree with its arguments, for the tools this server
 * lists with `x-mcp-header` arguments (the check tools' `tag`), as a 2026-07-28 server must refuse
 * (SEP-2243; the SDK v2 server does so before dispatch, so a bad argument meets this refusal first).
 * A tool the server does not list has no declarations: the call's own error answers it.
 */
function toolParamMismatch(
  headers: Readonly<Record<string, string | undefined>>,
  message: Message,
  options: ModernServeOptions,
): string | undefined {
  if (message.method !== 'tools/call' || options.enforceParamHeaders === false) return undefined;
  const name = message.params?.name;
  const declared = referenceParamHeaders(name, options.checkTools === true);
  if (Object.keys(declared).length === 0) return undefined;
  const reason = paramHeaderMismatch(headers, message, declared);
  return reason && `${reason}; the tool ${JSON.stringify(name)} marks that argument with x-mcp-header`;
}

/** The `Mcp-*` headers of a request (`MCP-Protocol-Version` included), names lower-cased. */
function mcpHeadersOf(headers: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (name.startsWith('mcp-') && value !== undefined) out[name] = value;
  return out;
}

async function callTool(
  res: ServerResponse,
  message: Message,
  options: ModernServeOptions,
  mcpHeaders: Record<string, string>,
): Promise<void> {
  const id = message.id as string | number;
  const params = message.params ?? {};
  const meta = params._meta as { progressToken?: unknown } | undefined;
  const token =
    typeof meta?.progressToken === 'string' || typeof meta?.progressToken === 'number' ? meta.progressToken : undefined;
  // One request, one set of running calls: with no sessions, two clients may use the same id.
  const running: RunningCalls = new Map();
  const closed = new AbortController();
  res.on('close', () => {
    if (res.writableFinished) return;
    // The modern era's cancel: the client closed the stream.
    noteCancelled(running, options.audit, id, 'the client closed the stream');
    closed.abort();
  });
  let streaming = false;
  const event = (payload: unknown): void => {
    if (!streaming) {
      streaming = true;
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
        ...(options.accelHeader && { 'x-accel-buffering': 'no' }),
      });
    }
    res.write(`event: message\ndata: ${JSON.stringify(payload)}\n\n`);
  };
  let answer: unknown;
  try {
    const result = await callReferenceTool(
      {
        name: String(params.name),
        arguments: params.arguments,
        progressToken: token,
        requestId: id,
        sessionId: null,
        mcpHeaders,
        round: { inputResponses: params.inputResponses, requestState: params.requestState },
        signal: closed.signal,
        notify: async (progress) => {
          if (options.jsonResponse || closed.signal.aborted) return;
          event({ jsonrpc: '2.0', method: 'notifications/progress', params: progress });
        },
      },
      options,
      running,
    );
    answer = { jsonrpc: '2.0', id, result: modernResult(result as Record<string, unknown>) };
  } catch (thrown) {
    if (!(thrown instanceof McpError)) throw thrown;
    answer = error(id, thrown.code, thrown.message);
  }
  if (closed.signal.aborted) return;
  if (!streaming) {
    send(res, 200, answer);
    return;
  }
  event(answer);
  res.end();
}
