import { describe, expect, test } from 'vitest';
import { type Frame, GOLDEN_FORMAT, type Transcript } from '../transcript/frame.js';
import { preservesBlocks, preservesProgressTokens, preservesUnicode } from './invariants.js';

/** A `tools/call` answered with one text block per entry of `texts`. */
function call(texts: readonly string[]): Transcript {
  const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'long_output' } };
  const result = { jsonrpc: '2.0', id: 1, result: { content: texts.map((text) => ({ type: 'text', text })) } };
  return {
    header: { format: GOLDEN_FORMAT, protocolVersion: '2025-11-25', transport: 'http', target: 'x', recorder: 'r' },
    frames: [
      { t: 0, dir: 'client->server', channel: 'json', exchange: 1, raw: JSON.stringify(request) },
      { t: 10, dir: 'server->client', channel: 'sse', exchange: 1, raw: `data: ${JSON.stringify(result)}\n\n` },
    ],
  };
}

const latin1 = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

describe('preservesBlocks', () => {
  test('passes identical blocks with their counts', () => {
    const verdict = preservesBlocks(call(['a', 'b😀']), call(['a', 'b😀']));
    expect(verdict.pass).toBe(true);
    expect(verdict.numbers).toEqual({ blocks: 2, expectedBlocks: 2, chars: 4, expectedChars: 4 });
  });

  test('leaves how non-ASCII text was encoded to the unicode property', () => {
    const sent = ['café 😀 ok', 'plain'];
    const mangled = call(sent.map(latin1));
    expect(preservesBlocks(mangled, call(sent)).pass).toBe(true);
    expect(preservesUnicode(mangled, call(sent)).evidence).toContain('(UTF-8 bytes decoded as latin-1)');
  });

  test('reports a truncated block by its ASCII length', () => {
    const verdict = preservesBlocks(call(['é', 'abcdef']), call(['é', 'abcdefgh']));
    expect(verdict.pass).toBe(false);
    expect(verdict.evidence).toBe('block 1 truncated to 6 of 8 characters');
  });

  test('reports a change next to non-ASCII text at its ASCII offset', () => {
    const verdict = preservesBlocks(call(['ça va X']), call(['ça va Y']));
    expect(verdict.evidence).toBe('block 0 differs at character 5: expected "a va Y", got "a va X"');
  });

  test('reports a missing block', () => {
    expect(preservesBlocks(call(['a']), call(['a', 'b'])).evidence).toBe('1 block instead of 2: block 1 is missing');
  });

  test('counts one block and one character in the singular', () => {
    expect(preservesBlocks(call(['a']), call(['a'])).evidence).toBe('1 block, 1 character, in order and identical');
    expect(preservesUnicode(call(['é']), call(['é'])).evidence).toBe(
      '1 block with non-ASCII text arrived byte-identical',
    );
  });
});

describe('non-ASCII injected into an ASCII-only block', () => {
  test.each([
    ['a replacement character', 'plain \ufffd text', 'got "plain \ufffd text"'],
    ['a BOM', '\ufeffplain text', 'got "\\ufeffplain text"'],
    ['latin-1 mojibake', 'plain Ã© text', 'got "plain Ã© text"'],
  ])('fails blocks and unicode on %s', (_, arrived, shown) => {
    const sent = ['first block: short', 'plain text', 'café'];
    const received = call(['first block: short', arrived, 'café']);
    const blocks = preservesBlocks(received, call(sent));
    expect(blocks.pass).toBe(false);
    expect(blocks.evidence).toContain('block 1 differs at character');
    expect(blocks.evidence).toContain(shown);
    const unicode = preservesUnicode(received, call(sent));
    expect(unicode.pass).toBe(false);
    expect(unicode.evidence).toMatch(/^block 1: "plain text" arrived as "/);
  });

  test('still passes the same ASCII-only blocks', () => {
    expect(preservesUnicode(call(['plain', 'café']), call(['plain', 'café'])).pass).toBe(true);
  });
});

describe('preservesProgressTokens', () => {
  /** {@link call}'s frames, its request carrying token "t", then each [time in µs, message] as an SSE event. */
  const session = (events: readonly (readonly [number, object])[]): Transcript => {
    const [request, answer] = call([]).frames as [Frame, Frame];
    const asked = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { progressToken: 't' } } };
    return {
      header: call([]).header,
      frames: [
        { ...request, raw: JSON.stringify(asked) },
        ...events.map(([t, message]) => ({ ...answer, t, raw: `data: ${JSON.stringify(message)}\n\n` })),
      ],
    };
  };
  const progress = (n: number): object => ({
    jsonrpc: '2.0',
    method: 'notifications/progress',
    params: { progressToken: 't', progress: n },
  });
  const result = { jsonrpc: '2.0', id: 1, result: { content: [] } };

  test('a notification after the result in the same read (the same arrival time) is after the result', () => {
    const inOrder = preservesProgressTokens(
      session([
        [1000, progress(1)],
        [2000, progress(2)],
        [2000, result],
      ]),
    );
    expect(inOrder.pass).toBe(true);
    const late = preservesProgressTokens(
      session([
        [1000, progress(1)],
        [2000, result],
        [2000, progress(2)],
      ]),
    );
    expect(late.pass).toBe(false);
    expect(late.evidence).toBe('1 progress notifications arrived after the result');
  });

  test('progress must increase: a repeated value fails', () => {
    const repeated = preservesProgressTokens(
      session([
        [1000, progress(1)],
        [2000, progress(1)],
        [3000, progress(2)],
        [4000, result],
      ]),
    );
    expect(repeated.pass).toBe(false);
    expect(repeated.evidence).toBe('progress went 1 → 1 at notification 2 of 3; it must increase');
  });
});
