import { MODERN_PROTOCOL_VERSION } from './frame.js';
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

/**
 * Whether a request's headers say it speaks 2026-07-28: its `MCP-Protocol-Version` names that
 * revision, or it carries `Mcp-Method` where nothing says 2025. An `Mcp-Method` header alone is not
 * enough beside a session id, an older `MCP-Protocol-Version` or an `initialize`: a 2025 client may
 * send it too (mcp-remote 0.15 does on its 2025 handshake), and such a request is the 2025 era's.
 */
export function hasModernHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): boolean {
  const version = headers['mcp-protocol-version'];
  if (version === MODERN_PROTOCOL_VERSION) return true;
  const method = headers['mcp-method'];
  return (
    method !== undefined && method !== 'initialize' && version === undefined && headers['mcp-session-id'] === undefined
  );
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

/** What `Mcp-Name` carries for each method that names something (SEP-2243). */
const NAME_PARAM: Readonly<Record<string, string>> = {
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

const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

/** A header value as the sender meant it: the base64 sentinel decoded, anything else as is. */
export function decodeHeaderValue(value: string): string {
  const encoded = SENTINEL.exec(value)?.[1];
  return encoded === undefined ? value : Buffer.from(encoded, 'base64').toString('utf8');
}

/**
 * Why a modern-era request's headers disagree with its body (`-32020 HeaderMismatch`), or
 * `undefined` when they agree: `Mcp-Method`, `Mcp-Name` where the method names something, and
 * `MCP-Protocol-Version` against the envelope's version.
 */
export function headerMismatch(
  headers: Readonly<Record<string, string | undefined>>,
  message: JsonRpcMessage,
): string | undefined {
  const expected = modernHeaders(message);
  for (const name of ['mcp-method', 'mcp-name', 'mcp-protocol-version']) {
    const want = expected[name];
    const got = headers[name];
    if (want === undefined) continue;
    if (got === undefined)
      return `the ${name} header is missing; the body says ${JSON.stringify(decodeHeaderValue(want))}`;
    if (decodeHeaderValue(got) !== decodeHeaderValue(want)) {
      return `the ${name} header says ${JSON.stringify(got.slice(0, 100))}, the body says ${JSON.stringify(decodeHeaderValue(want))}`;
    }
  }
  return undefined;
}

const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A `Mcp-Param-*` value as sent: the base64 sentinel decoded (`undefined` when its payload is not canonical base64 of UTF-8). */
function decodeParamValue(value: string): string | undefined {
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
    const decoded = decodeParamValue(got);
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
