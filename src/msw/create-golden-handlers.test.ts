import { describe, expect, test } from 'vitest';
import { createGoldenHandlers, type GoldenHandlersEndpoint } from './create-golden-handlers.js';

const recording: GoldenHandlersEndpoint = {
  mode: 'record',
  url: 'http://127.0.0.1:9/mcp',
  path: 'x.jsonl',
  signal: new AbortController().signal,
};

describe('createGoldenHandlers refuses what it cannot serve', () => {
  test('a stdio endpoint names the fix: give useGolden the server URL', () => {
    const stdio = { mode: 'record', command: 'node', args: [], path: 'x.jsonl' } as unknown as GoldenHandlersEndpoint;
    expect(() => createGoldenHandlers(stdio, { url: 'http://upstream.test/mcp' })).toThrow(
      /\[mcp-golden\] createGoldenHandlers serves what useGolden\(name, \{ target: URL \}\) resolved to: expected an endpoint with a url, got a stdio endpoint/,
    );
  });

  test('a missing or non-http url names the expected shape', () => {
    expect(() => createGoldenHandlers(recording, { url: 'upstream.test/mcp' })).toThrow(
      `[mcp-golden] createGoldenHandlers needs the URL the code under test calls: expected { url: 'http://…' }, got "upstream.test/mcp".`,
    );
    expect(() => createGoldenHandlers(recording, undefined as never)).toThrow(/got undefined/);
  });

  test('a replay endpoint without its golden is refused', () => {
    expect(() => createGoldenHandlers({ ...recording, mode: 'replay' }, { url: 'http://upstream.test/mcp' })).toThrow(
      '[mcp-golden] createGoldenHandlers: the endpoint of x.jsonl is in replay mode but carries no golden.',
    );
  });

  test('a recording endpoint gives one handler on the URL the code under test calls', () => {
    const handlers = createGoldenHandlers(recording, { url: 'http://upstream.test/mcp' });
    expect(handlers.map((h) => h.info.header)).toEqual(['/.+/ http://upstream.test/mcp']);
  });
});
