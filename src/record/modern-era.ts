import { GoldenError } from '../errors.js';
import { MODERN_PROTOCOL_VERSION } from '../transcript/frame.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { isJsonObject } from '../transcript/json-object.js';
import { resultOf } from '../transcript/json-rpc.js';
import { VERSION } from '../version.js';
import type { Scenario } from './scenario.js';

/** The `_meta` keys of the modern era's per-request envelope (2026-07-28, SEP-2575). */
export const ENVELOPE_KEYS = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
} as const;

/** The capability each embedded input request (or legacy server request) needs the client to declare. */
const CAPABILITY_OF: Readonly<Record<string, string>> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

/** Client capabilities matching the scenario's `answers`: a server only asks what a client declared. */
export function clientCapabilities(scenario: Scenario): Record<string, object> {
  const capabilities: Record<string, object> = {};
  for (const method of Object.keys(scenario.answers ?? {})) {
    const capability = CAPABILITY_OF[method];
    if (capability) capabilities[capability] = {};
  }
  return capabilities;
}

/**
 * `message` with the modern era's per-request envelope in `params._meta` (protocol version,
 * client info, client capabilities), beside whatever `_meta` it already carries (a progress token).
 */
export function withEnvelope(message: JsonRpcMessage, scenario: Scenario): JsonRpcMessage {
  const params = isJsonObject(message.params) ? message.params : {};
  const meta = isJsonObject(params._meta) ? params._meta : {};
  return {
    ...message,
    params: {
      ...params,
      _meta: {
        [ENVELOPE_KEYS.protocolVersion]: MODERN_PROTOCOL_VERSION,
        [ENVELOPE_KEYS.clientInfo]: { name: 'mcp-golden', version: VERSION },
        [ENVELOPE_KEYS.clientCapabilities]: clientCapabilities(scenario),
        ...meta,
      },
    },
  };
}

/** The protocol version a message's envelope names, when it carries one (a modern-era request). */
export function envelopeVersion(message: JsonRpcMessage): string | undefined {
  const meta = isJsonObject(message.params) ? message.params._meta : undefined;
  const version = isJsonObject(meta) ? meta[ENVELOPE_KEYS.protocolVersion] : undefined;
  return typeof version === 'string' ? version : undefined;
}

/** ASCII without control characters goes in a header as is; anything else in the base64 sentinel. */
function headerValue(value: unknown): string {
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
  if (name !== undefined) headers['mcp-name'] = headerValue(name);
  const args = isJsonObject(params.arguments) ? params.arguments : {};
  for (const [argument, header] of Object.entries(paramHeaders)) {
    if (args[argument] !== undefined) headers[`mcp-param-${header.toLowerCase()}`] = headerValue(args[argument]);
  }
  return headers;
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

/** True when a `server/discover` answer offers the modern revision. */
export function offersModern(response: JsonRpcMessage | undefined): boolean {
  const versions = response ? resultOf(response)?.supportedVersions : undefined;
  return Array.isArray(versions) && versions.includes(MODERN_PROTOCOL_VERSION);
}

/** The `resultType` of a modern result (`complete`, `input_required`, `task`), if it names one. */
export function resultTypeOf(response: JsonRpcMessage): string | undefined {
  const type = resultOf(response)?.resultType;
  return typeof type === 'string' ? type : undefined;
}

/**
 * The `inputResponses` answering an `input_required` result, each from the scenario's `answers`
 * for the embedded request's method; a request the scenario has no answer for fails the recording
 * with the fix.
 */
export function inputResponsesFor(scenario: Scenario, response: JsonRpcMessage): Record<string, unknown> {
  const requests = resultOf(response)?.inputRequests;
  const responses: Record<string, unknown> = {};
  if (!isJsonObject(requests)) return responses;
  for (const [key, request] of Object.entries(requests)) {
    const method = isJsonObject(request) ? String(request.method) : 'an unknown method';
    const answer = scenario.answers?.[method];
    if (answer === undefined) {
      throw new GoldenError(
        'E_RECORD',
        `Recording ${scenario.name ? `"${scenario.name}"` : `tool "${scenario.tool}"`} failed: the server answered input_required with a ${method} request ("${key}") and the scenario has no answer for it. Expected an "answers" entry, got none. Add "answers": {"${method}": <result>} to the scenario.`,
      );
    }
    responses[key] = answer;
  }
  return responses;
}
