import { isJsonObject, type JsonObject } from '../transcript/json-object.js';
import { acceptRefusal } from './mcp-http-rules.js';
import { claimOf, readMessage } from './read-message.js';
import {
  headerOf,
  INVALID_BODY,
  type IncomingHead,
  invalid,
  isModernVersion,
  legacyRefusal,
  MISSING_ENVELOPE,
  methodNotFound,
  NOT_ALLOWED,
  REMOVED_METHODS,
  type ReadOptions,
  type ReadRequest,
  type RequestRefusal,
  UNPARSEABLE,
} from './request-refusals.js';

export {
  jsonRpcErrorOf,
  methodNotAllowed,
  methodNotFound,
  type ReadOptions,
  type ReadRequest,
  type RequestRefusal,
  UNPARSEABLE,
} from './request-refusals.js';

/**
 * The one reading of an incoming MCP request, pure: which era it belongs to, the version, method
 * and name it names, and the refusal it gets, if any. `serve`, `replay` and the pass-through read
 * every request through it, so they refuse what the SDK v2 2.4.0 server refuses with the same
 * status and code. The rules are that server's (`createMcpHandler`: `classifyInboundRequest`, the
 * supported-revision gate, `validateStandardRequestHeaders`, the 2026-07-28 method registry):
 *
 * - body first: a request whose `params._meta` holds the protocol-version key claims the
 *   2026-07-28 envelope; `initialize` without such a claim is 2025's; `MCP-Protocol-Version` only
 *   cross-checks (a disagreement is `400 -32020`, a 2026-07-28 header without the envelope
 *   `400 -32602` naming the missing keys);
 * - an envelope missing `protocolVersion` or `clientCapabilities`, or malformed: `400 -32602`;
 * - a 2026-07-28 request without `MCP-Protocol-Version` or `Mcp-Method`, or whose `Mcp-Name`
 *   is missing, badly encoded or names something else: `400 -32020`; `Mcp-Method` is compared as
 *   sent, `Mcp-Name` decoded from the base64 sentinel only when canonical (as `Mcp-Param-*`);
 * - a revision the server does not speak: `400 -32022`;
 * - a method 2026-07-28 removed (`ping`, `initialize`, ...): `404 -32601`;
 * - on a modern-only server (`legacy: 'reject'`), every 2025 request: `400 -32022` (a batch or a
 *   posted response `400 -32600`, a GET or DELETE `405`, a notification `202`).
 */

/** Reads one incoming request: its era, version, method, name, and the refusal it gets. Never throws. */
export function readRequest(head: IncomingHead, options: ReadOptions = {}): ReadRequest {
  if (options.modern === 'reject') return readLegacyOnly(head, options);
  const read = classify(head, options);
  if (read.refusal || read.era === 'modern') return read;
  return options.legacy === 'reject'
    ? { ...read, refusal: legacyRefusal(read, head) }
    : legacyRules(read, head, options);
}

/**
 * A 2025-11-25-only server reads no envelope and no `Mcp-*` header, as the SDK v1 1.32 stateful
 * transport does: every request takes the 2025 rules, and one of 2026-07-28 is then refused as any
 * request outside a session is (400 -32000, by the transport).
 */
function readLegacyOnly(head: IncomingHead, options: ReadOptions): ReadRequest {
  const read = classify(head, options);
  // Only what any JSON-RPC server refuses stands: a 2026-07-28 header on an initialize, or a
  // 2026-07-28 element in a batch, is nothing to a 2025 server (its transport answers them).
  if (read.refusal && (read.refusal.code === -32700 || read.refusal === INVALID_BODY)) return read;
  const { refusal: _notRead, ...rest } = read;
  return legacyRules({ ...rest, era: 'legacy' }, head, options);
}

/**
 * Where a stdio connection stands, as the SDK v2 2.4.0 `serveStdio` keeps it: `opening` until a
 * message selects the era; `probe` after a 2026-07-28 `server/discover` (a 2025 message may still
 * follow it and take the connection); then `legacy` or `modern` for the connection's life.
 */
export type StdioPhase = 'opening' | 'probe' | 'legacy' | 'modern';

/** A stdio message as the reader sees it, and the phase its connection is in after it. */
export interface StdioRead extends ReadRequest {
  readonly phase: StdioPhase;
}

/**
 * Reads one message a stdio client wrote on a connection in `phase` (no headers to cross-check):
 * its era, the refusal it gets, and the phase after it. Over stdio the era is the connection's, as
 * `serveStdio` decides it: the opening message selects it (`initialize` or a message without the
 * envelope: 2025; the envelope: 2026-07-28, `server/discover` only probing), a refused opening
 * selects nothing, and once pinned to 2026-07-28 a request without the envelope gets `-32602`, an
 * `initialize` `-32022`, and the envelope's version is not asked again. A 2025-only server
 * (`modern: 'reject'`, SDK v1's stdio transport) reads no envelope.
 */
export function readStdioMessage(
  message: unknown,
  options: Omit<ReadOptions, 'transport'> = {},
  phase: StdioPhase = 'opening',
): StdioRead {
  const head: IncomingHead = { httpMethod: 'POST', headers: {}, body: message };
  if (options.modern === 'reject' || phase === 'legacy') {
    return { ...readRequest(head, { modern: 'reject', transport: 'stdio' }), phase: 'legacy' };
  }
  const read = readRequest(head, { transport: 'stdio' });
  if (phase === 'modern') return { ...pinnedModern(read, head), phase };
  // Nothing but a request or a notification opens a connection: the rest is dropped before an era.
  if (read.kind !== 'request' && read.kind !== 'notification') return { ...read, phase };
  if (read.refusal) {
    // A method 2026-07-28 removed, under a valid envelope, opens the connection in that era all the same.
    return { ...read, phase: read.era === 'modern' && read.refusal.status === 404 ? 'modern' : phase };
  }
  if (read.era === 'modern') {
    const probes = read.method === 'server/discover' || (phase === 'probe' && read.kind === 'notification');
    return { ...read, phase: probes ? 'probe' : 'modern' };
  }
  if (options.legacy === 'reject') return { ...read, refusal: legacyRefusal(read, head), phase };
  return { ...read, phase: 'legacy' };
}

/** A message on a connection pinned to 2026-07-28: the envelope required on requests, the revision already settled. */
function pinnedModern(read: ReadRequest, head: IncomingHead): ReadRequest {
  if (read.kind !== 'request' && read.kind !== 'notification') return { ...read, era: 'modern' };
  if (read.era === 'legacy') {
    if (read.kind === 'notification') return { ...read, era: 'modern' };
    if (read.method === 'initialize') return { ...read, refusal: legacyRefusal(read, head) };
    // The method registry answers before the envelope is read: a removed method is not found, envelope or not.
    return {
      ...read,
      refusal: REMOVED_METHODS.has(read.method as string) ? methodNotFound(read.method) : MISSING_ENVELOPE,
    };
  }
  if (read.refusal?.code !== -32022) return read;
  const { refusal: _settled, ...rest } = read;
  return REMOVED_METHODS.has(read.method as string) ? { ...rest, refusal: methodNotFound(read.method) } : rest;
}

const isId = (id: unknown): id is string | number =>
  typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
const hasParamsShape = (message: JsonObject): boolean => message.params === undefined || isJsonObject(message.params);

const none = (era: ReadRequest['era'], refusal?: RequestRefusal): ReadRequest => ({
  era,
  version: undefined,
  kind: 'none',
  method: undefined,
  id: null,
  name: undefined,
  ...(refusal && { refusal }),
});

function classify(head: IncomingHead, options: ReadOptions): ReadRequest {
  if (head.httpMethod.toUpperCase() !== 'POST') {
    // GET and DELETE are 2025's session operations; a GET that names 2026-07-28 is refused as the modern era refuses it.
    const version = headerOf(head, 'mcp-protocol-version');
    if (version !== undefined && isModernVersion(version)) return none('modern', NOT_ALLOWED);
    return { ...none('legacy'), version };
  }
  const body = head.body;
  if (body === UNPARSEABLE || body === undefined) {
    return none('legacy', { status: 400, code: -32700, message: 'Parse error: the request body is not valid JSON' });
  }
  if (Array.isArray(body)) return readBatch(body, head);
  if (!isJsonObject(body) || body.jsonrpc !== '2.0') return none('legacy', INVALID_BODY);
  if (typeof body.method !== 'string') {
    if (isId(body.id) && (isJsonObject(body.result) || isJsonObject(body.error))) {
      return { ...none('legacy'), kind: 'response', version: headerOf(head, 'mcp-protocol-version') };
    }
    return none('legacy', INVALID_BODY);
  }
  if (!hasParamsShape(body)) return none('legacy', INVALID_BODY);
  if ('id' in body) {
    if (!isId(body.id)) return none('legacy', INVALID_BODY);
    return readMessage(head, body, 'request', options.transport === 'stdio');
  }
  return readMessage(head, body, 'notification', options.transport === 'stdio');
}

function readBatch(body: unknown[], head: IncomingHead): ReadRequest {
  if (body.length === 0) return none('legacy', invalid('Bad Request: empty JSON-RPC batch'));
  for (const element of body) {
    if (claimOf(element) !== undefined) {
      return none(
        'legacy',
        invalid('Bad Request: JSON-RPC batches may not contain requests for protocol revision 2026-07-28 or later'),
      );
    }
    const ok =
      isJsonObject(element) && element.jsonrpc === '2.0' && (typeof element.method === 'string' || 'id' in element);
    if (!ok) return none('legacy', invalid('Bad Request: JSON-RPC batch contains an invalid message'));
  }
  return { ...none('legacy'), kind: 'batch', version: headerOf(head, 'mcp-protocol-version') };
}

/** A dual-era server's transport rules for a 2025 request that do not need its session: `Accept` (`406`). */
function legacyRules(read: ReadRequest, head: IncomingHead, options: ReadOptions): ReadRequest {
  if (options.transport === 'stdio') return read;
  const accept = acceptRefusal(head.httpMethod.toUpperCase(), headerOf(head, 'accept'));
  return accept ? { ...read, refusal: accept } : read;
}
