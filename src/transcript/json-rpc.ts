/**
 * The one typed reader of JSON-RPC messages: every other module narrows a parsed message through
 * these functions instead of casting it. Each reader checks the shape it returns; a message of the
 * wrong shape reads as `undefined`, never as a lie.
 */

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

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** True for a string or a number: the two shapes a JSON-RPC id or a progress token may take. */
export const isIdLike = (value: unknown): value is JsonRpcId => typeof value === 'string' || typeof value === 'number';

/** Parses one JSON-RPC message from text; `undefined` for invalid JSON or a non-object (batches included). */
export function parseJsonRpc(text: string): JsonRpcMessage | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Classifies a message by the members it carries. */
export function kindOf(message: JsonRpcMessage): JsonRpcKind {
  const hasId = 'id' in message;
  if (typeof message.method === 'string') return hasId ? 'request' : 'notification';
  if (hasId && 'result' in message) return 'result';
  if (hasId && isObject(message.error)) return 'error';
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
  isObject(message.params) ? message.params : {};

/** The `result` when it is an object. */
export const resultOf = (message: JsonRpcMessage): Readonly<Record<string, unknown>> | undefined =>
  isObject(message.result) ? message.result : undefined;

/** The `error` object when it has a numeric code and a string message. */
export function errorOf(message: JsonRpcMessage): JsonRpcErrorObject | undefined {
  const error = message.error;
  if (!isObject(error) || typeof error.code !== 'number') return undefined;
  return { code: error.code, message: typeof error.message === 'string' ? error.message : '', data: error.data };
}

/** Whether a request carries `_meta.progressToken`, and its value verbatim. */
export function requestProgressToken(message: JsonRpcMessage): { readonly present: boolean; readonly token: unknown } {
  const meta = paramsOf(message)._meta;
  if (!isObject(meta) || !('progressToken' in meta)) return { present: false, token: undefined };
  return { present: true, token: meta.progressToken };
}

/** The params of a `notifications/progress`; `undefined` for any other message. */
export function progressOf(message: JsonRpcMessage): ProgressParams | undefined {
  if (message.method !== 'notifications/progress') return undefined;
  const params = paramsOf(message);
  return {
    progressToken: params.progressToken,
    progress: params.progress,
    ...('total' in params && { total: params.total }),
    ...('message' in params && { message: params.message }),
  };
}

/** The `requestId` a `notifications/cancelled` names; `undefined` for any other message. */
export function cancelledRequestId(message: JsonRpcMessage): unknown {
  return message.method === 'notifications/cancelled' ? paramsOf(message).requestId : undefined;
}

/** The `content` blocks of a tool result; `undefined` when the message has none. */
export function resultContent(message: JsonRpcMessage | undefined): readonly unknown[] | undefined {
  const content = message && resultOf(message)?.content;
  return Array.isArray(content) ? content : undefined;
}

/** The `text` of each text block of a tool result, in order (non-text blocks read as `undefined`). */
export function resultTexts(message: JsonRpcMessage | undefined): (string | undefined)[] {
  return (resultContent(message) ?? []).map((block) =>
    isObject(block) && typeof block.text === 'string' ? block.text : undefined,
  );
}

/** A one-line description of what a message is, e.g. `notifications/progress` or `result #3`. */
export function describeMessage(message: JsonRpcMessage): string {
  const method = methodOf(message);
  if (method !== undefined) return method;
  const id = JSON.stringify(message.id);
  return kindOf(message) === 'error' || 'error' in message ? `error #${id}` : `result #${id}`;
}
