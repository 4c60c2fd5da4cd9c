import { MODERN_PROTOCOL_VERSION } from '../transcript/frame.js';
import { ENVELOPE_KEYS } from '../transcript/modern-envelope.js';
import type { EnvelopeIssue } from './envelope-issues.js';
import type { HttpRefusal } from './mcp-http-rules.js';

// What the one reader of a request (`read-request.ts`) says of it, and its refusals (the SDK v2 server's).

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

export const isModernVersion = (version: string): boolean => version >= MODERN_PROTOCOL_VERSION;

/** A request header as one string, RFC 9110 optional whitespace (space, tab) stripped as the SDK strips it before comparing. */
export function headerOf(head: IncomingHead, name: string): string | undefined {
  const value = head.headers[name];
  const text = Array.isArray(value) ? value.join(', ') : value;
  return text?.replace(/^[ \t]+|[ \t]+$/g, '');
}

/** The answer a 2026-07-28 server gives a method it does not have: `404 -32601`, as the SDK's method registry rung. */
export function methodNotFound(method: string | undefined): RequestRefusal {
  return { status: 404, code: -32601, message: `Method not found: ${String(method).slice(0, 100)}` };
}

export const NOT_ALLOWED: RequestRefusal = {
  status: 405,
  code: -32000,
  message:
    'Method not allowed. The 2026-07-28 revision has no sessions and no GET stream: send each request as a POST (subscriptions/listen for notifications).',
};

/** The answer to a GET or DELETE where the 2026-07-28 era is served: `405`, as the SDK v2 server answers it. */
export function methodNotAllowed(): RequestRefusal {
  return NOT_ALLOWED;
}

/** Headers and body disagree (SEP-2243): `400 -32020`. */
export const mismatch = (header: string, body: string): RequestRefusal => ({
  status: 400,
  code: -32020,
  message: `Bad Request: the request headers and body disagree: ${body}`,
  data: { mismatch: { header: header.slice(0, 100), body } },
});

export const invalid = (message: string): RequestRefusal => ({ status: 400, code: -32600, message });

export const INVALID_BODY = invalid('Bad Request: the request body is not a valid JSON-RPC message');

/** A pinned 2026-07-28 stdio connection's answer to a request without the envelope (`serveStdio`'s words). */
export const MISSING_ENVELOPE: RequestRefusal = {
  status: 400,
  code: -32602,
  message: `Request is missing the required _meta envelope for protocol revision 2026-07-28 (${ENVELOPE_KEYS.protocolVersion}, ${ENVELOPE_KEYS.clientCapabilities})`,
};

/** An envelope with a key missing or malformed: `400 -32602`. */
export const envelopeRefusal = (issue: EnvelopeIssue): RequestRefusal => ({
  status: 400,
  code: -32602,
  message: `Invalid _meta envelope for protocol revision 2026-07-28: ${issue.key}: ${issue.problem}`,
  data: { envelope: issue },
});

/** A 2026-07-28-or-later revision this server does not speak: `400 -32022`. */
export const unsupportedModern = (version: string): RequestRefusal => ({
  status: 400,
  code: -32022,
  message: `Unsupported protocol version: ${version.slice(0, 100)} (supported versions: ${MODERN_VERSIONS.join(', ')})`,
  data: { supported: MODERN_VERSIONS, requested: version },
});

/** A modern-only server's answer to a 2025 request (the SDK's `modernOnlyStrictRejection`). */
export function legacyRefusal(read: ReadRequest, head: IncomingHead): RequestRefusal {
  if (head.httpMethod.toUpperCase() !== 'POST') return { ...NOT_ALLOWED, message: 'Method not allowed.' };
  if (read.kind === 'batch') return invalid('Bad Request: JSON-RPC batches are not supported by this endpoint');
  if (read.kind === 'response') return invalid('Bad Request: JSON-RPC responses cannot be posted to this endpoint');
  if (read.kind === 'notification') return { status: 202, code: 0, message: '' };
  const requested = read.version;
  const speaks =
    'This server speaks 2026-07-28 only: send each request with the per-request _meta envelope (no initialize).';
  return {
    status: 400,
    code: -32022,
    message:
      requested === undefined
        ? `Unsupported protocol version: the request did not name a protocol version. ${speaks}`
        : `Unsupported protocol version: ${requested.slice(0, 100)} (supported versions: ${MODERN_VERSIONS.join(', ')}). ${speaks}`,
    data: { supported: MODERN_VERSIONS, ...(requested !== undefined && { requested }) },
  };
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
