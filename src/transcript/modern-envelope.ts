import type { JsonRpcMessage } from './frame-content.js';
import { isJsonObject } from './json-object.js';

/** The `_meta` keys of the modern era's per-request envelope (2026-07-28, SEP-2575). */
export const ENVELOPE_KEYS = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
} as const;

/** The identifier of the tasks extension (SEP-2663; ext-tasks `specification/draft/tasks.md`). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** True when a request's envelope declares the tasks extension in its client capabilities. */
export function declaresTasks(message: JsonRpcMessage): boolean {
  const meta = isJsonObject(message.params) ? message.params._meta : undefined;
  const capabilities = isJsonObject(meta) ? meta[ENVELOPE_KEYS.clientCapabilities] : undefined;
  const extensions = isJsonObject(capabilities) ? capabilities.extensions : undefined;
  return isJsonObject(extensions) && isJsonObject(extensions[TASKS_EXTENSION]);
}

/** The protocol version a message's envelope names, when it carries one (a modern-era request). */
export function envelopeVersion(message: JsonRpcMessage): string | undefined {
  const meta = isJsonObject(message.params) ? message.params._meta : undefined;
  const version = isJsonObject(meta) ? meta[ENVELOPE_KEYS.protocolVersion] : undefined;
  return typeof version === 'string' ? version : undefined;
}

/** A header value for `value`: ASCII without control characters as is, anything else in the base64 sentinel (SEP-2243). */
export function encodeHeaderValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return /^[\x20-\x7e]*$/.test(text) && text.trim() === text
    ? text
    : `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

/** What `Mcp-Name` carries for each method that names something (SEP-2243; `tasks/*` from SEP-2663). */
export const NAME_PARAM: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/**
 * The request headers a modern-era POST carries for `message`: `MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name` where the method names something, and `Mcp-Param-{Name}` for each
 * argument the tool marks with `x-mcp-header` (`paramHeaders`: argument → header name). Empty for
 * a message without the envelope (the legacy era).
 */
export function modernHeaders(
  message: JsonRpcMessage,
  paramHeaders: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const version = envelopeVersion(message);
  if (version === undefined || typeof message.method !== 'string') return {};
  const params = isJsonObject(message.params) ? message.params : {};
  const headers: Record<string, string> = { 'mcp-protocol-version': version, 'mcp-method': message.method };
  const nameParam = NAME_PARAM[message.method];
  const name = nameParam === undefined ? undefined : params[nameParam];
  if (name !== undefined) headers['mcp-name'] = encodeHeaderValue(name);
  const args = isJsonObject(params.arguments) ? params.arguments : {};
  for (const [argument, header] of Object.entries(paramHeaders)) {
    if (args[argument] !== undefined) headers[`mcp-param-${header.toLowerCase()}`] = encodeHeaderValue(args[argument]);
  }
  return headers;
}

const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The one decoding of a 2026-07-28 header value (SEP-2243), applied alike to `Mcp-Name` and
 * `Mcp-Param-*` as the SDK v2 2.4.0 server applies it: a value in the base64 sentinel
 * `=?base64?…?=` is decoded when its payload is canonical base64 (padding included) of valid
 * UTF-8, and is `undefined` (refused) otherwise; any other value is itself.
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!(value.startsWith('=?base64?') && value.endsWith('?='))) return value;
  const payload = value.slice(9, -2);
  if (!CANONICAL_BASE64.test(payload)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(payload, 'base64'));
  } catch {
    return undefined;
  }
}

/**
 * Why a `tools/call`'s `Mcp-Param-{Name}` headers disagree with its arguments (`-32020
 * HeaderMismatch`), or `undefined` when they agree (SEP-2243): for each argument the tool marks
 * with `x-mcp-header` (`paramHeaders`: argument → header name) that the body carries as a string,
 * number or boolean, the header must be there and decode (base64 sentinel `=?base64?…?=` for
 * non-ASCII) to the same value; numbers compare as numbers. An argument that is absent or `null`
 * needs no header.
 */
export function paramHeaderMismatch(
  headers: Readonly<Record<string, string | undefined>>,
  message: JsonRpcMessage,
  paramHeaders: Readonly<Record<string, string>>,
): string | undefined {
  const params = isJsonObject(message.params) ? message.params : {};
  const args = isJsonObject(params.arguments) ? params.arguments : {};
  for (const [argument, header] of Object.entries(paramHeaders)) {
    const body = args[argument];
    if (body === undefined || body === null || typeof body === 'object') continue;
    const name = `mcp-param-${header.toLowerCase()}`;
    const got = headers[name];
    if (got === undefined) return `the ${name} header is missing; the body says ${argument}=${JSON.stringify(body)}`;
    const decoded = decodeHeaderValue(got);
    if (decoded === undefined) return `the ${name} header carries an invalid base64 sentinel value`;
    const same =
      typeof body === 'number' && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(decoded)
        ? Number(decoded) === body
        : decoded === String(body);
    if (!same)
      return `the ${name} header decodes to ${JSON.stringify(decoded.slice(0, 100))}, the body says ${argument}=${JSON.stringify(body)}`;
  }
  return undefined;
}

/** Arguments a tool marks with `x-mcp-header` in its input schema: argument name → header name. */
export function paramHeadersOf(tool: unknown): Record<string, string> {
  const schema = isJsonObject(tool) ? tool.inputSchema : undefined;
  const properties = isJsonObject(schema) ? schema.properties : undefined;
  const out: Record<string, string> = {};
  if (!isJsonObject(properties)) return out;
  for (const [argument, spec] of Object.entries(properties)) {
    const header = isJsonObject(spec) ? spec['x-mcp-header'] : undefined;
    if (typeof header === 'string' && header !== '') out[argument] = header;
  }
  return out;
}
