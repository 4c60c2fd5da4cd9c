import { describe, expect, test } from 'vitest';
import {
  cancelledRequestId,
  describeMessage,
  errorOf,
  kindOf,
  parseJsonRpc,
  progressOf,
  requestProgressToken,
  resultTexts,
} from './json-rpc.js';

describe('the JSON-RPC reader', () => {
  test('parses objects only: invalid JSON, primitives, null and batches read as undefined', () => {
    expect(parseJsonRpc('{"jsonrpc":"2.0","id":1,"result":{}}')).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    for (const text of ['', 'null', '42', '"x"', '[{"jsonrpc":"2.0"}]', '{oops'])
      expect(parseJsonRpc(text)).toBeUndefined();
  });

  test('classifies requests, notifications, results, errors and the rest', () => {
    expect(kindOf({ id: 0, method: 'tools/call' })).toBe('request');
    expect(kindOf({ method: 'notifications/progress' })).toBe('notification');
    expect(kindOf({ id: 'a', result: {} })).toBe('result');
    expect(kindOf({ id: null, error: { code: -32700, message: 'x' } })).toBe('error');
    expect(kindOf({ id: 1 })).toBe('invalid');
    expect(kindOf({ method: 7 })).toBe('invalid');
  });

  test('reads a request token verbatim with its JSON type, and tells absent from undefined', () => {
    expect(requestProgressToken({ method: 'tools/call', params: { _meta: { progressToken: 0 } } })).toEqual({
      present: true,
      token: 0,
    });
    expect(requestProgressToken({ method: 'tools/call', params: { _meta: { progressToken: '7' } } }).token).toBe('7');
    expect(requestProgressToken({ method: 'tools/call', params: { _meta: {} } }).present).toBe(false);
    expect(requestProgressToken({ method: 'tools/call', params: 'nonsense' }).present).toBe(false);
  });

  test('reads progress, cancellation, errors and result texts only from messages of that shape', () => {
    const progress = { method: 'notifications/progress', params: { progressToken: 'p', progress: 2, total: 5 } };
    expect(progressOf(progress)).toEqual({ progressToken: 'p', progress: 2, total: 5 });
    expect(progressOf({ method: 'notifications/message', params: {} })).toBeUndefined();
    expect(cancelledRequestId({ method: 'notifications/cancelled', params: { requestId: 'r' } })).toBe('r');
    expect(cancelledRequestId(progress)).toBeUndefined();
    expect(errorOf({ id: 1, error: { code: -32602, message: 'bad' } })).toEqual({
      code: -32602,
      message: 'bad',
      data: undefined,
    });
    expect(errorOf({ id: 1, error: 'bad' })).toBeUndefined();
    expect(resultTexts({ id: 1, result: { content: [{ type: 'text', text: 'a' }, { type: 'image' }] } })).toEqual([
      'a',
      undefined,
    ]);
    expect(describeMessage({ id: 3, result: {} })).toBe('result #3');
    expect(describeMessage({ id: 3, error: { code: 1, message: '' } })).toBe('error #3');
  });
});
