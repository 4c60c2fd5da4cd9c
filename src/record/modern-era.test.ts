import { describe, expect, test } from 'vitest';
import { modernHeaders } from '../transcript/modern-envelope.js';
import { inputResponsesFor, paramHeadersOf, withEnvelope } from './modern-era.js';

describe('the modern era on the wire', () => {
  test('a request with the envelope gets Mcp-Method, Mcp-Name and Mcp-Param-*; non-ASCII values in the base64 sentinel', () => {
    const message = withEnvelope(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'café', arguments: { region: 'eu', n: 3 } } },
      { tool: 'café' },
    );
    expect(
      modernHeaders(message, paramHeadersOf({ inputSchema: { properties: { region: { 'x-mcp-header': 'Region' } } } })),
    ).toEqual({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': `=?base64?${Buffer.from('café').toString('base64')}?=`,
      'mcp-param-region': 'eu',
    });
  });

  test('a request without the envelope (the legacy era) gets no Mcp-* headers', () => {
    expect(modernHeaders({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } })).toEqual({});
  });

  test('the envelope keeps the progress token beside it and declares the capabilities of the answers and the tasks extension', () => {
    const message = withEnvelope(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: { progressToken: 0 } } },
      { tool: 'x', answers: { 'sampling/createMessage': { role: 'assistant' } } },
    );
    expect((message.params as { _meta: unknown })._meta).toEqual({
      progressToken: 0,
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'mcp-golden', version: expect.any(String) },
      'io.modelcontextprotocol/clientCapabilities': {
        sampling: {},
        extensions: { 'io.modelcontextprotocol/tasks': {} },
      },
    });
  });

  test('an input request the scenario has no answer for fails naming the method, the key and the fix', () => {
    const response = {
      jsonrpc: '2.0',
      id: 1,
      result: { resultType: 'input_required', inputRequests: { pick: { method: 'roots/list' } } },
    };
    expect(() => inputResponsesFor({ tool: 't', answers: {} }, response)).toThrow(
      /input_required with a roots\/list request \("pick"\).*Add "answers": \{"roots\/list": <result>\}/,
    );
    expect(inputResponsesFor({ tool: 't', answers: { 'roots/list': { roots: [] } } }, response)).toEqual({
      pick: { roots: [] },
    });
  });
});
