import type { Era } from '../transcript/frame.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { resultOf } from '../transcript/json-rpc.js';
import { modernHeaders } from '../transcript/modern-envelope.js';
import { resultTypeOf, withEnvelope } from './modern-era.js';
import type { Scenario } from './scenario.js';

/**
 * What differs between the protocol eras in the one session client: how a request is framed and
 * headed, how a call is cancelled, what follows a stream dropped on purpose, and whether a result
 * may ask for input. The handshake is the client's too: `initialize` (legacy) or `server/discover`.
 */
export interface EraStrategy {
  readonly era: Era;
  /** The request as this era sends it: the modern era adds the per-request envelope. */
  frame(message: JsonRpcMessage, scenario: Scenario): JsonRpcMessage;
  /** Extra headers of a framed request: the modern era's `Mcp-*`, with the tool's `Mcp-Param-*`. */
  headers(framed: JsonRpcMessage, paramHeaders: Readonly<Record<string, string>>): Record<string, string> | undefined;
  /** How the client cancels a call: send `notifications/cancelled`, or close the call's stream. */
  cancel(transport: 'http' | 'stdio'): 'notify' | 'close';
  /** After the client drops a call's stream on purpose: resume with `Last-Event-ID`, or re-issue the call. */
  readonly afterDrop: 'resume' | 'reissue';
  /** An `input_required` result is a round the client answers and retries (2026-07-28). */
  readonly inputRounds: boolean;
  /**
   * The call's answer is a task to follow with `tasks/get`: the tasks extension's `resultType: "task"`
   * (2026-07-28), or 2025-11-25's experimental `CreateTaskResult` (`{ task: { taskId, ... } }`).
   */
  isTask(response: JsonRpcMessage): boolean;
}

/**
 * The task a 2025-11-25 server answered a task-augmented call with (experimental tasks:
 * `CreateTaskResult` is `{ task: { taskId, status, pollInterval, ... } }`), or `undefined`.
 */
export function legacyTaskOf(response: JsonRpcMessage): Record<string, unknown> | undefined {
  const result = resultOf(response);
  const task = result?.task;
  if (result?.content !== undefined || typeof task !== 'object' || task === null) return undefined;
  return typeof (task as { taskId?: unknown }).taskId === 'string' ? (task as Record<string, unknown>) : undefined;
}

/** 2025-11-25 and before: a session from `initialize`, `notifications/cancelled`, resumption. */
const legacy: EraStrategy = {
  era: 'legacy',
  frame: (message) => message,
  headers: () => undefined,
  cancel: () => 'notify',
  afterDrop: 'resume',
  inputRounds: false,
  isTask: (response) => legacyTaskOf(response) !== undefined,
};

/**
 * 2026-07-28: no session; every request carries the envelope and its `Mcp-*` headers; over HTTP a
 * cancel closes the call's stream (stdio still sends `notifications/cancelled`); no resumption.
 */
const modern: EraStrategy = {
  era: 'modern',
  frame: (message, scenario) => withEnvelope(message, scenario),
  headers: (framed, paramHeaders) => modernHeaders(framed, paramHeaders),
  cancel: (transport) => (transport === 'http' ? 'close' : 'notify'),
  afterDrop: 'reissue',
  inputRounds: true,
  isTask: (response) => resultTypeOf(response) === 'task',
};

/** The strategy of an era. */
export const eraStrategy = (era: Era): EraStrategy => (era === 'modern' ? modern : legacy);
