import { GoldenError } from '../errors.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { errorOf, isErrorResult, resultTexts } from '../transcript/json-rpc.js';
import type { Scenario } from './scenario.js';

/** JSON-RPC's "Invalid params": the code a server answers a call whose arguments it refuses. */
const INVALID_PARAMS = -32602;

/**
 * Words servers put in an `isError` result when argument validation refused the call before the
 * tool ran: the SDK v1 `McpServer` turns its -32602 into `isError` text ("MCP error -32602: Input
 * validation error: Invalid arguments for tool get-sum: ...").
 */
const VALIDATION_TEXT = /-32602|input validation error|invalid arguments for tool|invalid params/i;

/**
 * Why the server refused a `tools/call`'s arguments, read off its response: a JSON-RPC error with
 * code -32602, or an `isError` result whose text says argument validation failed. `undefined` for a
 * result, and for an error the tool itself reported (it ran, so the call was valid).
 *
 * @example
 * argumentRejection({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'steps must be >= 1' } })
 * // 'JSON-RPC error -32602: steps must be >= 1'
 */
export function argumentRejection(response: JsonRpcMessage): string | undefined {
  const error = errorOf(response);
  if (error) return error.code === INVALID_PARAMS ? `JSON-RPC error ${error.code}: ${error.message}` : undefined;
  if (!isErrorResult(response)) return undefined;
  const text = resultTexts(response)
    .filter((t): t is string => t !== undefined)
    .join(' ');
  return VALIDATION_TEXT.test(text) ? `isError result: ${text.replace(/\s*\n\s*/g, '; ')}` : undefined;
}

/**
 * The error for a call the server refused as invalid arguments while the scenario did not expect
 * one: recording it would write a golden of a mistake, as recording an unknown tool would.
 */
export function rejectedArguments(scenario: Scenario, rejection: string): GoldenError {
  const name = scenario.name ? `"${scenario.name}"` : `the call of tool "${scenario.tool}"`;
  return new GoldenError(
    'E_ARGUMENTS',
    `Cannot record ${name}: the server rejected its arguments ${JSON.stringify(scenario.arguments ?? {})} (${rejection}). Expected a result of tool "${scenario.tool}". Fix the scenario's "arguments", or add "expectError": true to record the server's error on purpose.`,
  );
}
