import { describe, expect, test } from 'vitest';
import { classifyProtocolError } from './protocol-errors.js';

describe('classifyProtocolError', () => {
  test.each([
    ['-32020', 'HeaderMismatch'],
    ['-32021', 'MissingRequiredClientCapability'],
    ['-32022', 'UnsupportedProtocolVersion'],
  ])('names %s as %s from the failure text', (code, name) => {
    const text = `Waiting for the answer to tools/call failed: HTTP 400: {"jsonrpc":"2.0","id":1,"error":{"code":${code},"message":"x"}}.`;
    expect(classifyProtocolError(text)).toMatch(new RegExp(`^${code} ${name}: `));
  });

  test('leaves other errors alone', () => {
    expect(classifyProtocolError('HTTP 400: {"error":{"code":-32600}}')).toBeUndefined();
    expect(classifyProtocolError('HTTP 400: {"error":{"code":-320220}}')).toBeUndefined();
  });
});
