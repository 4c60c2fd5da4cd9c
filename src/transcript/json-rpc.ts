/**
 * The one typed reader of JSON-RPC messages: every other module narrows a parsed message through
 * these functions instead of casting it. Each reader checks the shape it returns; a message of the
 * wrong shape reads as `undefined`, never as a lie.
 */

import { isJsonObject, memberOf } from './json-object.js';

/** A JSON-RPC message as parsed from a frame (request, notification, result or error). */
export type JsonRpcMessage = Readonly<Record<string, unknown>>;

/** A JSON-RPC id as it travels: string or number, its JSON type kept. */
export type JsonRpcId = string | number;

/** What a message is. `invalid` for an object that is none of the four. */
export type JsonRpcKind = 'request' | 'notification' | 'result' | 'error' | 'invalid';

/** A `notifications/progress` notification's params. */
export interface ProgressParams {
  readonly progressToken: unknown;
  readonly progress: unknown;
  readonly total?: unknown;
  readonly message?: unknown;
}

/** A JSON-RPC error object. */
export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** True for a string or a number: the two shapes a JSON-RPC id or a progress token may take. */
export const isIdLike = (value: unknown): value is JsonRpcId => typeof value === 'string' || typeof value === 'number';

/** Parses one JSON-RPC message from text; `undefined` for invalid JSON or a non-object (batches included). */
export function parseJsonRpc(text: string): JsonRpcMessage | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** True for a JSON object that is a JSON-RPC 2.0 request, notification or response. */
export function isJsonRpcMessage(value: unknown): value is JsonRpcMessage {
  if (!isJsonObject(value) || value.jsonrpc !== '2.0') return false;
  return typeof value.method === 'string' || 'result' in value || 'error' in value;
}

/** Classifies a message by the members it carries. */
export function kindOf(message: JsonRpcMessage): JsonRpcKind {
  const hasId = 'id' in message;
  if (typeof message.method === 'string') return hasId ? 'request' : 'notification';
  if (hasId && 'result' in message) return 'result';
  if (hasId && isJsonObject(message.error)) return 'error';
  return 'invalid';
}

/** True for a result or an error response. */
export const isResponse = (message: JsonRpcMessage): boolean => {
  const kind = kindOf(message);
  return kind === 'result' || kind === 'error';
};

/** The `method`, or `undefined` for responses. */
export const methodOf = (message: JsonRpcMessage): string | undefined =>
  typeof message.method === 'string' ? message.method : undefined;

/** The message's `params` when it is an object, else an empty object. */
export const paramsOf = (message: JsonRpcMessage): Readonly<Record<string, unknown>> =>
  isJsonObject(message.params) ? message.params : {};

/** The message's `params` without `_meta` (progress token and other bookkeeping): what a request asks. */
export function paramsWithoutMeta(message: JsonRpcMessage | undefined): Record<string, unknown> {
  const { _meta: _, ...params } = message ? paramsOf(message) : {};
  return params;
}

/** The `result` when it is an object. */
export const resultOf = (message: JsonRpcMessage | undefined): Readonly<Record<string, unknown>> | undefined =>
  message && isJsonObject(message.result) ? message.result : undefined;

/** True for a tool result flagged `isError: true` (an error the tool reports, not a JSON-RPC error). */
export const isErrorResult = (message: JsonRpcMessage | undefined): boolean => resultOf(message)?.isError === true;

/** The `error` object when it has a numeric code and a string message. */
export function errorOf(message: JsonRpcMessage): JsonRpcErrorObject | undefined {
  const error = message.error;
  if (!isJsonObject(error) || typeof error.code !== 'number') return undefined;
  return { code: error.code, message: typeof error.message === 'string' ? error.message : '', data: error.data };
}

/** Whether a request carries `_meta.progressToken`, and its value verbatim. */
export function requestProgressToken(message: JsonRpcMessage): { readonly present: boolean; readonly token: unknown } {
  const meta = paramsOf(message)._meta;
  if (!isJsonObject(meta) || !('progressToken' in meta)) return { present: false, token: undefined };
  return { present: true, token: meta.progressToken };
}

/** The params of a `notifications/progress`; `undefined` for any other message. */
export function progressOf(message: JsonRpcMessage | undefined): ProgressParams | undefined {
  if (message?.method !== 'notifications/progress') return undefined;
  const params = paramsOf(message);
  return {
    progressToken: params.progressToken,
    progress: params.progress,
    ...('total' in params && { total: params.total }),
    ...('message' in params && { message: params.message }),
  };
}

/**
 * Experimental: the `partialResult` a progress notification carries under the closed proposal
 * (modelcontextprotocol PR #383), or `undefined`. Some servers ship it anyway.
 */
export function partialResultOf(message: JsonRpcMessage | undefined): unknown {
  return message?.method === 'notifications/progress' ? paramsOf(message).partialResult : undefined;
}

/** The `requestId` a `notifications/cancelled` names; `undefined` for any other message. */
export function cancelledRequestId(message: JsonRpcMessage): unknown {
  return message.method === 'notifications/cancelled' ? paramsOf(message).requestId : undefined;
}

/** The `content` blocks of a tool result or a partial result; `undefined` when it has none. */
export function contentOf(result: unknown): readonly unknown[] | undefined {
  const content = memberOf(result, 'content');
  return Array.isArray(content) ? content : undefined;
}

/** The `content` blocks of a tool result; `undefined` when the message has none. */
export const resultContent = (message: JsonRpcMessage | undefined): readonly unknown[] | undefined =>
  contentOf(resultOf(message));

/** The `text` of a content block; `undefined` for a block without text (image, audio, resource...). */
export function textOf(block: unknown): string | undefined {
  const text = memberOf(block, 'text');
  return typeof text === 'string' ? text : undefined;
}

/** The `text` of each text block of a tool result, in order (non-text blocks read as `undefined`). */
export const resultTexts = (message: JsonRpcMessage | undefined): (string | undefined)[] =>
  (resultContent(message) ?? []).map(textOf);

/** A one-line description of what a message is, e.g. `notifications/progress` or `result #3`. */
export function describeMessage(message: JsonRpcMessage): string {
  const method = methodOf(message);
  if (method !== undefined) return method;
  const id = JSON.stringify(message.id);
  return kindOf(message) === 'error' || 'error' in message ? `error #${id}` : `result #${id}`;
}

/**
 * The legacy era's `initialize` request: the one place it is built. The client sends it (the
 * recorder's and the check's, and the pass-through's upstream); the cross-era replay re-frames a
 * 2026-07-28 golden with it.
 */
export function legacyInitialize(
  id: string | number,
  protocolVersion: string,
  capabilities: Readonly<Record<string, unknown>>,
  clientInfo: Readonly<Record<string, string>>,
): JsonRpcMessage {
  return { jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion, capabilities, clientInfo } };
}

/** The notification that ends the legacy handshake. */
export const INITIALIZED: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/initialized' };
