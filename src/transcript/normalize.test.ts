import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { type Frame, GOLDEN_FORMAT, type Transcript, type TranscriptHeader } from './frame.js';
import { frameMessage } from './frame-content.js';
import { normalizeTranscript } from './normalize.js';
import { REDACTED, redactTranscript } from './redact.js';

const header: TranscriptHeader = {
  format: GOLDEN_FORMAT,
  protocolVersion: '2025-11-25',
  transport: 'http',
  target: 'http://127.0.0.1:40123/mcp',
  recorder: 'r',
};

function sse(exchange: number, id: string, message: unknown): Frame {
  return {
    t: 0,
    dir: 'server->client',
    channel: 'sse',
    exchange,
    raw: `event: message\nid: ${id}\ndata: ${JSON.stringify(message)}\n\n`,
  };
}

function call(id: string | number, token: string | number | undefined, session: string, port = 40123): Frame[] {
  const params: Record<string, unknown> = { name: 'progress', arguments: { steps: 2 } };
  if (token !== undefined) params._meta = { progressToken: token };
  return [
    {
      t: 0,
      dir: 'client->server',
      channel: 'http',
      exchange: 1,
      method: 'POST',
      url: '/mcp',
      headers: { 'mcp-session-id': session, host: `127.0.0.1:${port}`, 'content-length': '99', date: 'Sun, 22 Nov' },
    },
    {
      t: 1,
      dir: 'client->server',
      channel: 'json',
      exchange: 1,
      raw: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
    },
    sse(1, '7-1', { method: 'notifications/progress', params: { progressToken: token, progress: 1 }, jsonrpc: '2.0' }),
    sse(1, '7-2', { result: { content: [{ type: 'text', text: 'id 7-1 stays' }] }, jsonrpc: '2.0', id }),
  ];
}

describe('normalizeTranscript', () => {
  test('a JSON message spread over several data lines is normalised as the one message a client reads', () => {
    const spread = (id: number, token: string): Frame => ({
      t: 0,
      dir: 'server->client',
      channel: 'sse',
      exchange: 1,
      raw: `event: message\ndata: {"jsonrpc":"2.0",\ndata:  "result":{"id":"inner","content":[]},\r\ndata: "_meta":{"progressToken":"${token}"},\ndata: "id":${id}}\n\n`,
    });
    const one = normalizeTranscript({ header, frames: [spread(3, 'tok-a')] });
    const other = normalizeTranscript({ header, frames: [spread(8, 'tok-b')] });
    expect(one.frames[0]?.raw).toBe(
      'event: message\ndata: {"jsonrpc":"2.0",\ndata:  "result":{"id":"inner","content":[]},\r\ndata: "_meta":{"progressToken":"<token-1>"},\ndata: "id":0}\n\n',
    );
    expect(other.frames[0]?.raw).toBe(one.frames[0]?.raw);
  });

  test('replaces sessions, event ids, request ids, tokens and ports with consistent aliases', () => {
    const normal = normalizeTranscript({ header, frames: call('req-9', 'tok-A', 'abc-123') });
    expect(normal.header.target).toBe('http://127.0.0.1:<port-1>/mcp');
    expect(normal.frames[0]?.headers).toEqual({
      'mcp-session-id': '<session-1>',
      host: '127.0.0.1:<port-1>',
      date: '<date>',
    });
    expect(frameMessage(normal.frames[1] as Frame)).toMatchObject({
      id: '<request-id-1>',
      params: { _meta: { progressToken: '<token-1>' } },
    });
    expect(normal.frames[2]?.raw).toBe(
      'event: message\nid: <event-id-1>\ndata: {"method":"notifications/progress","params":{"progressToken":"<token-1>","progress":1},"jsonrpc":"2.0"}\n\n',
    );
    expect(normal.frames[3]?.raw).toContain('"text":"id 7-1 stays"');
    expect(normal.frames[3]?.raw).toContain('"id":"<request-id-1>"}');
  });

  test('keeps the JSON type of tokens and ids: numbers stay numbers, strings stay strings', () => {
    const numeric = normalizeTranscript({ header, frames: call(5, 9007199254740991, 's') });
    const stringy = normalizeTranscript({ header, frames: call('5', '9007199254740991', 's') });
    // Numbers become 0-based numbers (ids 0, 1, 2 of a usual client keep their values); strings <kind-n>.
    expect(frameMessage(numeric.frames[2] as Frame)?.params).toMatchObject({ progressToken: 0 });
    expect(frameMessage(stringy.frames[2] as Frame)?.params).toMatchObject({ progressToken: '<token-1>' });
    expect(frameMessage(numeric.frames[3] as Frame)?.id).toBe(0);
    expect(frameMessage(stringy.frames[3] as Frame)?.id).toBe('<request-id-1>');
  });

  test('gives the same transcript for two runs that differ only in volatile values', () => {
    const a = normalizeTranscript({ header, frames: call(1, 'run-a-token', 'session-aaa') });
    const b = normalizeTranscript({
      header: { ...header, target: 'http://127.0.0.1:51000/mcp' },
      frames: call(1, 'run-b-token', 'session-bbb', 51000),
    });
    expect(b).toEqual(a);
  });

  test('tells a dropped token apart from a kept one', () => {
    const kept = normalizeTranscript({ header, frames: call(1, 'x', 's') });
    const dropped = normalizeTranscript({ header, frames: call(1, undefined, 's') });
    expect(dropped.frames[1]?.raw).not.toEqual(kept.frames[1]?.raw);
  });

  const token = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.integer(), fc.constant(9007199254740991));
  test.prop([
    fc.array(
      fc.tuple(fc.oneof(fc.string({ maxLength: 6 }), fc.nat()), token, fc.string({ minLength: 1, maxLength: 8 })),
      { minLength: 1, maxLength: 4 },
    ),
  ])('is idempotent and never changes the JSON type of a token', (calls) => {
    const transcript: Transcript = { header, frames: calls.flatMap(([id, tok, session]) => call(id, tok, session)) };
    const once = normalizeTranscript(transcript);
    expect(normalizeTranscript(once)).toEqual(once);
    once.frames.forEach((frame, i) => {
      const before = frameMessage(transcript.frames[i] as Frame)?.params as { progressToken?: unknown } | undefined;
      const after = frameMessage(frame)?.params as { progressToken?: unknown } | undefined;
      if (before && 'progressToken' in before) expect(typeof after?.progressToken).toBe(typeof before.progressToken);
    });
  });
});

describe('redactTranscript', () => {
  test('redacts credential headers and secret query parameters', () => {
    const frames: Frame[] = [
      {
        t: 0,
        dir: 'client->server',
        channel: 'http',
        exchange: 1,
        method: 'POST',
        url: '/mcp?api_key=abc123&mode=x',
        headers: { authorization: 'Bearer s3cret', cookie: 'a=b', accept: 'text/event-stream' },
      },
    ];
    const [frame] = redactTranscript({ header, frames }).frames;
    expect(frame?.headers).toEqual({ authorization: REDACTED, cookie: REDACTED, accept: 'text/event-stream' });
    expect(frame?.url).toBe(`/mcp?api_key=${REDACTED}&mode=x`);
  });

  test('redacts pattern matches in bodies but never a protocol field, even a token that looks like a secret', () => {
    const frames: Frame[] = [
      {
        t: 0,
        dir: 'client->server',
        channel: 'json',
        exchange: 1,
        raw: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"key":"sk-AAAAAAAAAAAAAAAAAAAAAA"},"_meta":{"progressToken":"sk-BBBBBBBBBBBBBBBBBBBBBB"}}}',
      },
    ];
    const [frame] = redactTranscript({ header, frames }, { patterns: [/sk-[A-Z]{20,}/] }).frames;
    expect(frame?.raw).toContain(`"key":"${REDACTED}"`);
    expect(frame?.raw).toContain('"progressToken":"sk-BBBBBBBBBBBBBBBBBBBBBB"');
  });

  test('keeps the protocol request headers as sent (Mcp-Method, Mcp-Name, Mcp-Param-*, MCP-Protocol-Version) and still redacts credentials', () => {
    const frames: Frame[] = [
      {
        t: 0,
        dir: 'client->server',
        channel: 'http',
        exchange: 1,
        method: 'POST',
        url: '/mcp',
        headers: {
          authorization: 'Bearer sk-CCCCCCCCCCCCCCCCCCCCCC',
          'mcp-method': 'tools/call',
          'mcp-name': 'sk-DDDDDDDDDDDDDDDDDDDDDD',
          'mcp-param-region': 'sk-EEEEEEEEEEEEEEEEEEEEEE',
          'mcp-protocol-version': '2026-07-28',
          'x-trace': 'sk-FFFFFFFFFFFFFFFFFFFFFF',
        },
      },
    ];
    const [frame] = redactTranscript({ header, frames }, { patterns: [/sk-[A-Z]{20,}/] }).frames;
    expect(frame?.headers).toEqual({
      authorization: REDACTED,
      'mcp-method': 'tools/call',
      'mcp-name': 'sk-DDDDDDDDDDDDDDDDDDDDDD',
      'mcp-param-region': 'sk-EEEEEEEEEEEEEEEEEEEEEE',
      'mcp-protocol-version': '2026-07-28',
      'x-trace': REDACTED,
    });
  });
});
