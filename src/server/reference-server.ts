import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  type JSONRPCMessage,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import * as z from 'zod/v4';
import { isGoldenError } from '../errors.js';
import { paramHeadersOf } from '../transcript/modern-envelope.js';
import { VERSION } from '../version.js';
import type { AuditEntry, AuditLog } from './audit-log.js';
import { CHECK_TOOLS } from './check-tools.js';
import { findReferenceTool, type InputRound, parseToolArguments, referenceToolDefinitions } from './reference-tools.js';
import { type IntegerArgument, parseIntegerArguments, toJsonSchema } from './tool-arguments.js';

/** Name and version the reference server reports in `initialize`. */
export const REFERENCE_SERVER_INFO = { name: 'mcp-golden-reference', version: VERSION } as const;

/** URI of the audit log resource. */
export const AUDIT_LOG_URI = 'mcp-golden://audit-log';

/** Name of the tool that returns the audit log over the wire. */
export const AUDIT_LOG_TOOL = 'audit_log';

const AUDIT_ARGS: readonly IntegerArgument[] = [
  {
    name: 'since',
    minimum: 0,
    maximum: 2_147_483_647,
    default: 0,
    description: 'Only rows with seq greater than this.',
  },
];

const AUDIT_TOOL: Tool = {
  name: AUDIT_LOG_TOOL,
  description:
    'Returns the audit log of every tools/call the upstream handled (token and its JSON type, notifications sent with times, cancelled, steps, duration). Not itself logged.',
  inputSchema: toJsonSchema(AUDIT_ARGS),
};

/** Options for {@link connectReferenceServer}. */
export interface ConnectReferenceOptions {
  /** The shared log every session writes to. */
  readonly audit: AuditLog;
  /** Make `progress` fail at this step, after a final notification (progress == total) with `isError: true`. @default unset */
  readonly failAtStep?: number | undefined;
  /** Also serve `progress_tight`, `multibyte_output`, `input_round` and `silent_result`, the gateway check's extra tools. @default false */
  readonly checkTools?: boolean;
}

/** What this package's own transports add to {@link ConnectReferenceOptions}. */
export interface TransportHooks {
  /** How the transport holds a call's writes for one turn (see `ToolContext.holdWrites`). @default unset */
  readonly holdWrites?: (() => void) | undefined;
}

/**
 * `tools/call` as the SDK declares it, but with `arguments` of any type. The SDK parses a request
 * with the handler's schema before its own validation, and a parse failure there becomes -32603
 * (internal error); with this schema its validation runs and answers -32602 (invalid params).
 */
const CallToolAnyArguments = CallToolRequestSchema.extend({
  params: CallToolRequestSchema.shape.params.extend({ arguments: z.unknown().optional() }),
});

/**
 * One JSON Schema validator for every session's server. The SDK would build an Ajv instance (its
 * formats and meta-schemas) for each `Server`, about 1.2 ms of CPU and a share of the heap per
 * session, though the reference server never asks a client for input it would validate.
 */
let validator: AjvJsonSchemaValidator | undefined;
function sharedValidator(): AjvJsonSchemaValidator {
  validator ??= new AjvJsonSchemaValidator();
  return validator;
}

const idKey = (id: string | number): string => `${typeof id}:${id}`;

/** An invalid-params error whose wire message is exactly `message` (the SDK would prefix "MCP error -32602: "). */
function toolError(message: string): McpError {
  const error = new McpError(ErrorCode.InvalidParams, message);
  error.message = message;
  return error;
}

/**
 * Creates the reference upstream (tools `progress`, `long_output`, `chatty` and `audit_log`,
 * resource `mcp-golden://audit-log`) and connects it to `transport`.
 *
 * @example
 * const audit = new AuditLog()
 * await connectReferenceServer(new StdioServerTransport(), { audit })
 */
export async function connectReferenceServer(transport: Transport, options: ConnectReferenceOptions): Promise<Server> {
  return connectWithHooks(transport, options);
}

/** {@link connectReferenceServer} with the hooks of this package's HTTP and stdio servers. */
export async function connectWithHooks(
  transport: Transport,
  options: ConnectReferenceOptions & TransportHooks,
): Promise<Server> {
  const { audit } = options;
  const server = new Server(REFERENCE_SERVER_INFO, {
    capabilities: { tools: {}, resources: {} },
    instructions: 'mcp-golden reference streaming server: progress, long_output, chatty.',
    jsonSchemaValidator: sharedValidator(),
  });
  const running = new RunningCalls();

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: referenceToolList(options) }));
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [{ uri: AUDIT_LOG_URI, name: 'audit-log', mimeType: 'application/json' }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => readAuditResource(audit, request.params.uri));

  server.setRequestHandler(
    CallToolAnyArguments,
    (request, extra): Promise<CallToolResult> =>
      callReferenceTool(
        {
          name: request.params.name,
          arguments: request.params.arguments,
          progressToken: extra._meta?.progressToken,
          requestId: extra.requestId,
          sessionId: extra.sessionId ?? null,
          signal: extra.signal,
          notify: (params) => extra.sendNotification({ method: 'notifications/progress', params }),
        },
        options,
        running,
      ),
  );

  await server.connect(transport);
  observeCancellations(transport, (requestId, reason) => noteCancelled(running, audit, requestId, reason));
  return server;
}

/** How many early cancels, and ids of ended calls, a connection remembers. */
const REMEMBERED = 32;
/** An early cancel older than this is not matched to a call: it was late for an earlier one, not early. */
const EARLY_CANCEL_MS = 10_000;

/** A cancel kept for a call not yet arrived, with its arrival time. */
interface EarlyCancel {
  readonly reason: string | null;
  readonly at: number;
}

/** Forgets the oldest entry of a remembered collection once it holds {@link REMEMBERED}. */
function forgetOldest<K>(kept: Map<K, unknown> | Set<K>): void {
  if (kept.size >= REMEMBERED) kept.delete(kept.keys().next().value as K);
}

/**
 * A connection's calls still running, by request id (their audit rows take a cancellation when one
 * arrives), and cancels that named an id it was not running: kept (the newest few) for the call that
 * arrives after its own cancel, since through a gateway a call and its cancel can travel apart (two
 * POSTs in 2025-11-25), unless the id ended lately on the connection (a late cancel, not an early one).
 */
export class RunningCalls {
  private readonly calls = new Map<string, AuditEntry>();
  private readonly early = new Map<string, EarlyCancel>();
  private readonly ended = new Set<string>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The running call's audit row. */
  get(requestId: string | number): AuditEntry | undefined {
    return this.calls.get(idKey(requestId));
  }

  /** A call starts running; returns the cancel that reached the connection before it, and how many ms before. */
  start(
    requestId: string | number,
    entry: AuditEntry,
  ): { readonly reason: string | null; readonly ms: number } | undefined {
    const key = idKey(requestId);
    this.calls.set(key, entry);
    const early = this.early.get(key);
    this.early.delete(key);
    if (early === undefined) return undefined;
    const ms = this.now() - early.at;
    return ms <= EARLY_CANCEL_MS ? { reason: early.reason, ms } : undefined;
  }

  /** A call ended. */
  end(requestId: string | number): void {
    const key = idKey(requestId);
    this.calls.delete(key);
    forgetOldest(this.ended);
    this.ended.add(key);
  }

  /** Keeps a cancel naming no running call, unless that call ended lately. */
  keepEarly(requestId: string | number, reason: string | null): void {
    const key = idKey(requestId);
    if (this.ended.has(key)) return;
    forgetOldest(this.early);
    this.early.set(key, { reason, at: this.now() });
  }
}

/** `tools/list` of the reference server: the streaming tools, `audit_log`, and the check's tools when asked. */
export function referenceToolList(options: Pick<ConnectReferenceOptions, 'checkTools'>): Tool[] {
  const extra = options.checkTools ? [...CHECK_TOOLS.values()] : [];
  return [...referenceToolDefinitions(), AUDIT_TOOL, ...extra.map((t) => structuredClone(t.definition))];
}

const declarations = new Map<boolean, ReadonlyMap<unknown, Readonly<Record<string, string>>>>();

/**
 * The `Mcp-Param-*` headers a call of tool `name` takes, from the `x-mcp-header` arguments of the
 * tool list (with or without the check tools), built once per list; `{}` for an unlisted tool.
 */
export function referenceParamHeaders(name: unknown, checkTools: boolean): Readonly<Record<string, string>> {
  let byName = declarations.get(checkTools);
  if (!byName) {
    byName = new Map(referenceToolList({ checkTools }).map((t) => [t.name, paramHeadersOf(t)]));
    declarations.set(checkTools, byName);
  }
  return byName.get(name) ?? {};
}

/** `resources/read` of the audit log resource. */
export function readAuditResource(
  audit: AuditLog,
  uri: string,
): { contents: { uri: string; mimeType: string; text: string }[] } {
  if (uri !== AUDIT_LOG_URI) {
    throw new McpError(ErrorCode.InvalidParams, `Unknown resource "${uri}". Expected ${AUDIT_LOG_URI}.`);
  }
  const text = JSON.stringify({ entries: audit.entries() });
  return { contents: [{ uri: AUDIT_LOG_URI, mimeType: 'application/json', text }] };
}

/** One `tools/call` as either era's transport hands it over. */
export interface ReferenceToolCall {
  readonly name: string;
  readonly arguments: unknown;
  readonly progressToken: string | number | undefined;
  readonly requestId: string | number;
  readonly sessionId: string | null;
  /** The `Mcp-*` request headers as received (modern era over HTTP), for the audit row. */
  readonly mcpHeaders?: Readonly<Record<string, string>>;
  /** The multi-round-trip fields of a 2026-07-28 request; unset in the 2025 era. */
  readonly round?: InputRound;
  /** Aborts when the call is cancelled: `notifications/cancelled`, or the client closing the stream. */
  readonly signal: AbortSignal;
  /** The task id when the call runs as a task (tasks extension), for its audit row. */
  readonly taskId?: string;
  /** Receives the call's audit row as it opens. */
  readonly onAudit?: (entry: AuditEntry) => void;
  /** A task (tasks extension): no progress is sent, the tool runs as if the request had no token. */
  readonly noProgress?: boolean;
  /** Called when the tool reaches step `i` (a task's status message follows it). */
  readonly onStep?: (i: number) => void;
  /** Sends a progress notification on the call's stream. */
  notify(params: { progressToken: string | number; progress: number; total: number; message: string }): Promise<void>;
}

/**
 * Runs one `tools/call` of the reference server, whichever era it came in: validates the
 * arguments (invalid params naming field, bound and value), runs the tool with progress on the
 * call's own stream, and writes its audit row. Throws the protocol's error for an unknown tool or
 * bad arguments.
 */
export async function callReferenceTool(
  call: ReferenceToolCall,
  options: ConnectReferenceOptions & TransportHooks,
  running: RunningCalls,
): Promise<CallToolResult> {
  const { audit } = options;
  const { name, arguments: rawArgs, progressToken: token } = call;
  if (name === AUDIT_LOG_TOOL) return readAuditLog(audit, rawArgs);
  const received = receivedRound(call.round);
  const entry = audit.begin({
    sessionId: call.sessionId,
    tool: name,
    arguments: rawArgs ?? null,
    requestId: call.requestId,
    progressToken: token ?? null,
    ...(call.mcpHeaders && { mcpHeaders: call.mcpHeaders }),
    ...(call.taskId !== undefined && { taskId: call.taskId }),
    ...(received && { inputRound: { received } }),
  });
  call.onAudit?.(entry);
  const checkTool = options.checkTools ? CHECK_TOOLS.get(name) : undefined;
  const tool = findReferenceTool(name) ?? checkTool;
  if (!tool) {
    const message = `Unknown tool: "${name}". Available tools: progress, long_output, chatty, ${AUDIT_LOG_TOOL}.`;
    audit.finish(entry, 'error', message);
    throw toolError(message);
  }
  let args: Record<string, number>;
  try {
    args = checkTool
      ? checkTool.parse(rawArgs)
      : parseToolArguments(tool as Parameters<typeof parseToolArguments>[0], rawArgs);
  } catch (error) {
    const message = isGoldenError(error) ? error.message : String(error);
    audit.finish(entry, 'error', message);
    throw toolError(message);
  }
  const early = running.start(call.requestId, entry);
  if (early && call.signal.aborted) audit.noteCancel(entry, early.reason);
  else if (early) audit.noteCancelBeforeCall(entry, early.ms);
  try {
    const result = await tool.run(args, {
      progressToken: call.noProgress ? undefined : token,
      signal: call.signal,
      failAtStep: options.failAtStep,
      holdWrites: options.holdWrites,
      round: call.round,
      onStep: (i) => {
        entry.stepsCompleted = i;
        call.onStep?.(i);
      },
      sendProgress: async (progress, total, message) => {
        if (token === undefined || call.noProgress || call.signal.aborted) return;
        await call.notify({ progressToken: token, progress, total, message });
        audit.noteNotification(entry, { progress, total, message });
      },
    });
    if ((result as { resultType?: unknown }).resultType === 'input_required') {
      entry.inputRound = { ...entry.inputRound, sent: structuredClone(result) as Record<string, unknown> };
    }
    if (call.signal.aborted) audit.finish(entry, entry.cancelled ? 'cancelled' : 'closed');
    else audit.finish(entry, 'result');
    return result;
  } finally {
    running.end(call.requestId);
  }
}

/** The round fields a request carried, as the audit row keeps them; `undefined` when it carried neither. */
function receivedRound(
  round: InputRound | undefined,
): { inputResponses?: unknown; requestState?: unknown } | undefined {
  if (!round || (round.inputResponses === undefined && round.requestState === undefined)) return undefined;
  return {
    ...(round.inputResponses !== undefined && { inputResponses: round.inputResponses }),
    ...(round.requestState !== undefined && { requestState: round.requestState }),
  };
}

/** Notes a cancellation on the audit row of a running call, or keeps it for a call not yet arrived. */
export function noteCancelled(
  running: RunningCalls,
  audit: AuditLog,
  requestId: string | number,
  reason: string | null,
): void {
  const entry = running.get(requestId);
  if (entry) audit.noteCancel(entry, reason);
  else running.keepEarly(requestId, reason);
}

function readAuditLog(audit: AuditLog, rawArgs: unknown): CallToolResult {
  let since: number;
  try {
    ({ since = 0 } = parseIntegerArguments(AUDIT_LOG_TOOL, AUDIT_ARGS, rawArgs));
  } catch (error) {
    throw toolError(isGoldenError(error) ? error.message : String(error));
  }
  const entries = audit.entries().filter((e) => e.seq > since);
  return {
    content: [{ type: 'text', text: JSON.stringify({ entries }) }],
    structuredContent: { entries },
  };
}

/**
 * Watches incoming messages for `notifications/cancelled` before the SDK acts on them, so the
 * audit row can tell a cancellation from a closed connection.
 */
function observeCancellations(
  transport: Transport,
  onCancel: (requestId: string | number, reason: string | null) => void,
): void {
  const inner = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage, extra) => {
    if ('method' in message && message.method === 'notifications/cancelled' && !('id' in message)) {
      const requestId = message.params?.requestId;
      const reason = message.params?.reason;
      if (typeof requestId === 'string' || typeof requestId === 'number') {
        onCancel(requestId, typeof reason === 'string' ? reason : null);
      }
    }
    inner?.(message, extra);
  };
}
