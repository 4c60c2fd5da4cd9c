import { describe, expect, test } from 'vitest';
import { argumentRejection } from './argument-error.js';

const result = (result: unknown) => ({ jsonrpc: '2.0', id: 1, result });
const text = (t: string, isError = true) => result({ content: [{ type: 'text', text: t }], isError });

describe('argumentRejection', () => {
  test('reads an invalid-params JSON-RPC error as a rejection, with its message', () => {
    const response = { jsonrpc: '2.0', id: 1, error: { code: -32602, message: '"steps" must be >= 1' } };
    expect(argumentRejection(response)).toBe('JSON-RPC error -32602: "steps" must be >= 1');
  });

  test("reads the SDK's isError input-validation result as a rejection, on one line", () => {
    const response = text('MCP error -32602: Input validation error: Invalid arguments for tool get-sum: a\nb');
    expect(argumentRejection(response)).toBe(
      'isError result: MCP error -32602: Input validation error: Invalid arguments for tool get-sum: a; b',
    );
  });

  test('leaves results, errors the tool reported and other JSON-RPC errors alone', () => {
    expect(argumentRejection(text('the sum is 3', false))).toBeUndefined();
    expect(argumentRejection(text('progress failed at step 3/4'))).toBeUndefined();
    expect(argumentRejection({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'boom' } })).toBeUndefined();
  });
});
