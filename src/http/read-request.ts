import { MODERN_PROTOCOL_VERSION } from '../transcript/frame.js';
import { isJsonObject, type JsonObject } from '../transcript/json-object.js';
import { decodeHeaderValue, ENVELOPE_KEYS, NAME_PARAM } from '../transcript/modern-envelope.js';
import { type EnvelopeIssue, envelopeIssues, PV_NOT_STRING } from './envelope-issues.js';
import { acceptRefusal, type HttpRefusal } from './mcp-http-rules.js';

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

/** What an incoming request is, as the reader sees it. */
export interface ReadRequest {
  /** `modern` for 2026-07-28 (per-request envelope), `legacy` for the 2025 era. */
  readonly era: 'legacy' | 'modern';
  /** The version it names: the envelope's (modern), else `MCP-Protocol-Version`'s. */
  readonly version: string | undefined;
  /** What the body holds. */
  readonly kind: 'request' | 'notification' | 'response' | 'batch' | 'none';
  readonly method: string | undefined;
  /** The JSON-RPC id an answer carries (`null` where there is none to echo). */
  readonly id: string | number | null;
  /** What `Mcp-Name` mirrors, from the body: the tool or prompt name, the resource uri, the task id. */
  readonly name: string | undefined;
  /** The `Mcp-Name` header as sent (an audit keeps what came), when there is one. */
  readonly nameHeader?: string;
  /** The refusal to answer with; none when the request is to be served. */
  readonly refusal?: RequestRefusal;
}

/** A refusal: the HTTP status, and the JSON-RPC error (none for an accepted-and-dropped notification, `202`). */
export interface RequestRefusal extends HttpRefusal {
  readonly data?: unknown;
}

/** How the server reading the request serves the 2025 era. */
export interface ReadOptions {
  /** `serve`: both eras on one endpoint; `reject`: 2026-07-28 only, as SDK v2's `legacy: 'reject'`. @default 'serve' */
  readonly legacy?: 'serve' | 'reject';
  /** `reject`: 2025-11-25 only, as the SDK v1 1.32 stateful transport (reads no envelope). @default 'serve' */
  readonly modern?: 'serve' | 'reject';
  /** `stdio`: no HTTP headers to cross-check. @default 'http' */
  readonly transport?: 'http' | 'stdio';
}

/** The request as it arrived: its HTTP method, headers (names lower-cased) and body. */
export interface IncomingHead {
  readonly httpMethod: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed body; `undefined` for none, {@link UNPARSEABLE} for a body that is not JSON. */
  readonly body?: unknown;
}

/** The body of a request that is not JSON. */
export const UNPARSEABLE: unique symbol = Symbol('unparseable body');

/** 2026-07-28 revisions served. */
export const MODERN_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION];

/** Request methods of the 2025 era that 2026-07-28 removed: a 2026-07-28 server has none of them. */
export const REMOVED_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
  'roots/list',
  'tasks/result',
  'tasks/list',
]);

/** The answer a 2026-07-28 server gives a method it does not have: `404 -32601`, as the SDK's method registry rung. */
export function methodNotFound(method: string | undefined): RequestRefusal {
  return { status: 404, code: -32601, message: `Method not found: ${String(method).slice(0, 100)}` };
}

/** The answer to a GET or DELETE where the 2026-07-28 era is served: `405`, as the SDK v2 server answers it. */
export function methodNotAllowed(): RequestRefusal {
  return NOT_ALLOWED;
}

const isModernVersion = (version: string): boolean => version >= MODERN_PROTOCOL_VERSION;
const isId = (id: unknown): id is string | number =>
  typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
const hasParamsShape = (message: JsonObject): boolean => message.params === undefined || isJsonObject(message.params);

/** RFC 9110 optional whitespace (space, tab) around a field value removed, as the SDK strips it before comparing. */
const stripOws = (value: string): string => value.replace(/^[ \t]+|[ \t]+$/g, '');

function headerOf(head: IncomingHead, name: string): string | undefined {
  const value = head.headers[name];
  const text = Array.isArray(value) ? value.join(', ') : value;
  return text === undefined ? undefined : stripOws(text);
}

const mismatch = (header: string, body: string): RequestRefusal => ({
  status: 400,
  code: -32020,
  message: `Bad Request: the request headers and body disagree: ${body}`,
  data: { mismatch: { header: header.slice(0, 100), body } },
});

const invalid = (message: string): RequestRefusal => ({ status: 400, code: -32600, message });

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

/** A pinned 2026-07-28 connection's answer to a request without the envelope (`serveStdio`'s words). */
const MISSING_ENVELOPE: RequestRefusal = {
  status: 400,
  code: -32602,
  message: `Request is missing the required _meta envelope for protocol revision 2026-07-28 (${ENVELOPE_KEYS.protocolVersion}, ${ENVELOPE_KEYS.clientCapabilities})`,
};

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
    return readMessage(head, body, 'request', options);
  }
  return readMessage(head, body, 'notification', options);
}

const INVALID_BODY = invalid('Bad Request: the request body is not a valid JSON-RPC message');
const NOT_ALLOWED: RequestRefusal = {
  status: 405,
  code: -32000,
  message:
    'Method not allowed. The 2026-07-28 revision has no sessions and no GET stream: send each request as a POST (subscriptions/listen for notifications).',
};

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

/** The `_meta` of a message whose params carry the envelope claim (the protocol-version key), else `undefined`. */
function claimOf(message: unknown): JsonObject | undefined {
  const params = isJsonObject(message) ? message.params : undefined;
  const meta = isJsonObject(params) ? params._meta : undefined;
  return isJsonObject(meta) && ENVELOPE_KEYS.protocolVersion in meta ? meta : undefined;
}

function readMessage(
  head: IncomingHead,
  message: JsonObject,
  kind: 'request' | 'notification',
  options: ReadOptions,
): ReadRequest {
  const method = message.method as string;
  const params = isJsonObject(message.params) ? message.params : {};
  const nameParam = NAME_PARAM[method];
  const nameValue = nameParam === undefined ? undefined : params[nameParam];
  const stdio = options.transport === 'stdio';
  const nameHeader = stdio ? undefined : headerOf(head, 'mcp-name');
  const base = {
    kind,
    method,
    id: kind === 'request' ? (message.id as string | number) : null,
    name: typeof nameValue === 'string' ? nameValue : undefined,
    ...(nameHeader !== undefined && { nameHeader }),
  };
  const header = stdio ? undefined : headerOf(head, 'mcp-protocol-version');
  const methodHeader = stdio ? undefined : headerOf(head, 'mcp-method');
  const meta = claimOf(message);
  const refused = (refusal: RequestRefusal, era: ReadRequest['era'] = 'modern'): ReadRequest => ({
    ...base,
    era,
    version: undefined,
    refusal,
  });
  if (kind === 'request' && method === 'initialize' && !isValidModernClaim(meta)) {
    if (header !== undefined && isModernVersion(header)) {
      return refused(
        mismatch(header, 'an initialize request (legacy handshake) was sent with a modern MCP-Protocol-Version header'),
        'legacy',
      );
    }
    const requested = typeof params.protocolVersion === 'string' ? params.protocolVersion : undefined;
    return { ...base, era: 'legacy', version: requested };
  }
  if (meta !== undefined) {
    const claimed = meta[ENVELOPE_KEYS.protocolVersion];
    const issue =
      kind === 'request' ? envelopeIssues(meta)[0] : typeof claimed === 'string' ? undefined : PV_NOT_STRING;
    if (issue !== undefined) return refused(envelopeRefusal(issue));
    const version = claimed as string;
    if (header !== undefined && header !== version) {
      return refused(
        mismatch(
          header,
          `the body envelope names protocol version ${version} but the MCP-Protocol-Version header names ${header}`,
        ),
      );
    }
    if (methodHeader !== undefined && methodHeader !== method && (kind === 'request' || isModernVersion(version))) {
      return refused(
        mismatch(methodHeader, `the body names method ${method} but the Mcp-Method header names ${methodHeader}`),
      );
    }
    return servedModern(head, { ...base, era: 'modern', version }, stdio);
  }
  if (header !== undefined && isModernVersion(header)) {
    if (kind === 'notification') {
      if (methodHeader !== undefined && methodHeader !== method) {
        return refused(
          mismatch(
            methodHeader,
            `the notification body names method ${method} but the Mcp-Method header names ${methodHeader}`,
          ),
        );
      }
      return servedModern(head, { ...base, era: 'modern', version: header }, stdio);
    }
    const present = isJsonObject(params._meta) ? params._meta : undefined;
    const missingKeys = envelopeIssues(present ?? {})
      .filter((issue) => issue.problem === 'missing')
      .map((issue) => issue.key);
    const missing =
      present === undefined ? ['_meta'] : missingKeys.length > 0 ? missingKeys : [ENVELOPE_KEYS.protocolVersion];
    return refused({
      status: 400,
      code: -32602,
      message: `Invalid params: the MCP-Protocol-Version header names protocol revision ${header}, but the request is missing the required per-request envelope key(s): ${missing.join(', ')}`,
      data: { envelope: { missing } },
    });
  }
  return { ...base, era: 'legacy', version: header };
}

const envelopeRefusal = (issue: EnvelopeIssue): RequestRefusal => ({
  status: 400,
  code: -32602,
  message: `Invalid _meta envelope for protocol revision 2026-07-28: ${issue.key}: ${issue.problem}`,
  data: { envelope: issue },
});

/** A claim that overrides `initialize`'s 2025 reading: well-formed and naming a 2026-07-28 (or later) revision. */
function isValidModernClaim(meta: JsonObject | undefined): boolean {
  const version = meta?.[ENVELOPE_KEYS.protocolVersion];
  return (
    meta !== undefined && typeof version === 'string' && isModernVersion(version) && envelopeIssues(meta).length === 0
  );
}

/** The gates a request the classifier calls modern meets next: the revision served, the standard headers, the method registry. */
function servedModern(head: IncomingHead, read: ReadRequest, stdio: boolean): ReadRequest {
  const version = read.version as string;
  if (!MODERN_VERSIONS.includes(version)) {
    return {
      ...read,
      refusal: {
        status: 400,
        code: -32022,
        message: `Unsupported protocol version: ${version.slice(0, 100)} (supported versions: ${MODERN_VERSIONS.join(', ')})`,
        data: { supported: MODERN_VERSIONS, requested: version },
      },
    };
  }
  if (read.kind !== 'request') return read;
  const refusal =
    (stdio ? undefined : standardHeaderRefusal(head, read)) ??
    (REMOVED_METHODS.has(read.method as string) ? methodNotFound(read.method) : undefined);
  return refusal ? { ...read, refusal } : read;
}

/** SEP-2243's standard headers on a 2026-07-28 request: `MCP-Protocol-Version`, `Mcp-Method`, and `Mcp-Name` where the method names something. */
function standardHeaderRefusal(head: IncomingHead, read: ReadRequest): RequestRefusal | undefined {
  const method = read.method as string;
  if (headerOf(head, 'mcp-protocol-version') === undefined) {
    return mismatch(
      '(missing)',
      `the body envelope names protocol version ${read.version} but the required MCP-Protocol-Version header is absent`,
    );
  }
  if (headerOf(head, 'mcp-method') === undefined) {
    return mismatch('(missing)', `the body names method ${method} but the required Mcp-Method header is absent`);
  }
  const field = NAME_PARAM[method];
  if (field === undefined) return undefined;
  const nameHeader = headerOf(head, 'mcp-name');
  if (nameHeader === undefined) {
    return read.name === undefined
      ? undefined
      : mismatch(
          '(missing)',
          `the body carries params.${field}="${read.name}" but the required Mcp-Name header is absent`,
        );
  }
  const decoded = decodeHeaderValue(nameHeader);
  if (decoded === undefined)
    return mismatch(nameHeader, 'the Mcp-Name header carries an invalid Base64 sentinel value');
  if (read.name !== undefined && decoded !== read.name) {
    return mismatch(
      nameHeader,
      `the body carries params.${field}="${read.name}" but the Mcp-Name header names "${decoded.slice(0, 100)}"`,
    );
  }
  return undefined;
}

/** A modern-only server's answer to a 2025 request (the SDK's `modernOnlyStrictRejection`). */
function legacyRefusal(read: ReadRequest, head: IncomingHead): RequestRefusal {
  if (head.httpMethod.toUpperCase() !== 'POST') return { ...NOT_ALLOWED, message: 'Method not allowed.' };
  if (read.kind === 'batch') return invalid('Bad Request: JSON-RPC batches are not supported by this endpoint');
  if (read.kind === 'response') return invalid('Bad Request: JSON-RPC responses cannot be posted to this endpoint');
  if (read.kind === 'notification') return { status: 202, code: 0, message: '' };
  const requested = read.version;
  return {
    status: 400,
    code: -32022,
    message:
      requested === undefined
        ? 'Unsupported protocol version: the request did not name a protocol version. This server speaks 2026-07-28 only: send each request with the per-request _meta envelope (no initialize).'
        : `Unsupported protocol version: ${requested.slice(0, 100)} (supported versions: ${MODERN_VERSIONS.join(', ')}). This server speaks 2026-07-28 only: send each request with the per-request _meta envelope (no initialize).`,
    data: { supported: MODERN_VERSIONS, ...(requested !== undefined && { requested }) },
  };
}

/** A dual-era server's transport rules for a 2025 request that do not need its session: `Accept` (`406`). */
function legacyRules(read: ReadRequest, head: IncomingHead, options: ReadOptions): ReadRequest {
  if (options.transport === 'stdio') return read;
  const accept = acceptRefusal(head.httpMethod.toUpperCase(), headerOf(head, 'accept'));
  return accept ? { ...read, refusal: accept } : read;
}

/** The JSON-RPC error message a refusal is answered with. */
export function jsonRpcErrorOf(id: string | number | null, refusal: RequestRefusal): Record<string, unknown> {
  const error = {
    code: refusal.code,
    message: refusal.message,
    ...(refusal.data !== undefined && { data: refusal.data }),
  };
  return { jsonrpc: '2.0', id, error };
}
