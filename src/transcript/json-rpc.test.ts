import { describe, expect, test } from 'vitest';
import { isJsonObject, memberOf } from './json-object.js';
import {
  cancelledRequestId,
  contentOf,
  describeMessage,
  errorOf,
  isErrorResult,
  isJsonRpcMessage,
  kindOf,
  paramsWithoutMeta,
  parseJsonRpc,
  partialResultOf,
  progressOf,
  requestProgressToken,
  resultContent,
  resultOf,
  resultTexts,
  textOf,
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

  test('tells JSON-RPC 2.0 messages from other JSON', () => {
    expect(isJsonRpcMessage({ jsonrpc: '2.0', method: 'ping', id: 1 })).toBe(true);
    expect(isJsonRpcMessage({ jsonrpc: '2.0', id: 1, result: {} })).toBe(true);
    expect(isJsonRpcMessage({ jsonrpc: '2.0', id: 1, error: { code: 1, message: '' } })).toBe(true);
    for (const value of [null, [], 'x', { method: 'ping' }, { jsonrpc: '1.0', method: 'ping' }, { jsonrpc: '2.0' }])
      expect(isJsonRpcMessage(value)).toBe(false);
  });

  test('reads params without _meta, results, isError and content blocks without trusting their shape', () => {
    expect(paramsWithoutMeta({ method: 'tools/call', params: { name: 'x', _meta: { progressToken: 1 } } })).toEqual({
      name: 'x',
    });
    expect(paramsWithoutMeta({ method: 'ping', params: [1, 2] })).toEqual({});
    expect(paramsWithoutMeta(undefined)).toEqual({});
    expect(resultOf({ id: 1, result: null })).toBeUndefined();
    expect(resultOf(undefined)).toBeUndefined();
    expect(isErrorResult({ id: 1, result: { isError: true, content: [] } })).toBe(true);
    expect(isErrorResult({ id: 1, result: { isError: 'yes' } })).toBe(false);
    expect(isErrorResult({ id: 1, error: { code: 1, message: '' } })).toBe(false);
    const blocks = [{ type: 'text', text: 'a' }, { type: 'image', data: '' }, null, { type: 'text', text: 7 }];
    expect(resultContent({ id: 1, result: { content: blocks } })).toBe(blocks);
    expect(resultContent({ id: 1, result: { content: 'a' } })).toBeUndefined();
    expect(contentOf({ content: blocks })).toBe(blocks);
    expect(contentOf(null)).toBeUndefined();
    expect(blocks.map(textOf)).toEqual(['a', undefined, undefined, undefined]);
  });

  test('reads an experimental partial result only from a progress notification', () => {
    const partial = { content: [{ type: 'text', text: 'a' }] };
    expect(
      partialResultOf({
        method: 'notifications/progress',
        params: { progressToken: 1, progress: 1, partialResult: partial },
      }),
    ).toBe(partial);
    expect(partialResultOf({ method: 'notifications/message', params: { partialResult: partial } })).toBeUndefined();
    expect(partialResultOf(undefined)).toBeUndefined();
    expect(progressOf(undefined)).toBeUndefined();
  });

  test('narrows JSON objects and their members without casting', () => {
    expect(isJsonObject({})).toBe(true);
    for (const value of [null, undefined, [], 'x', 3]) expect(isJsonObject(value)).toBe(false);
    expect(memberOf({ a: { b: 2 } }, 'a')).toEqual({ b: 2 });
    expect(memberOf(memberOf({ a: { b: 2 } }, 'a'), 'b')).toBe(2);
    for (const value of [null, undefined, ['a'], 'a', 3]) expect(memberOf(value, 'a')).toBeUndefined();
  });
});
