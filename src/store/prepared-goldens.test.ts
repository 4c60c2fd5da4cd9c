import { describe, expect, test } from 'vitest';
import { comparePrepared, compareTranscripts } from '../transcript/compare.js';
import { GOLDEN_FORMAT, type Transcript } from '../transcript/frame.js';
import { parseTranscript } from '../transcript/parse.js';
import { prepareTranscript } from '../transcript/prepared-transcript.js';
import { serializeTranscript } from '../transcript/serialize.js';
import { PreparedGoldens } from './prepared-goldens.js';

const golden = (text: string): string =>
  serializeTranscript({
    header: { format: GOLDEN_FORMAT, protocolVersion: '2025-11-25', transport: 'http', target: 'x', recorder: 'r' },
    frames: [{ t: 1, dir: 'server->client', channel: 'sse', exchange: 1, raw: `data: ${text}\n\n` }],
  });

/** A parser that counts its calls. */
function counting(): { parse: (text: string) => Transcript; calls: () => number } {
  let calls = 0;
  return {
    parse: (text) => {
      calls++;
      return parseTranscript(text);
    },
    calls: () => calls,
  };
}

describe('prepared goldens', () => {
  test('the same content is parsed and prepared once, and gives what preparing it afresh gives', () => {
    const cache = new PreparedGoldens();
    const { parse, calls } = counting();
    const text = golden('{"jsonrpc":"2.0","id":"a","result":{}}');
    const first = cache.get(text, parse);
    expect(cache.get(`${text}`, parse)).toBe(first);
    expect(calls()).toBe(1);
    expect(first).toEqual(prepareTranscript(parseTranscript(text)));
  });

  test('edited content is a new entry, never the stale one', () => {
    const cache = new PreparedGoldens();
    const { parse, calls } = counting();
    const before = cache.get(golden('"one"'), parse);
    const after = cache.get(golden('"two"'), parse);
    expect(calls()).toBe(2);
    expect(after.streams[0]?.frames[0]?.raw).toBe('data: "two"\n\n');
    expect(before.streams[0]?.frames[0]?.raw).toBe('data: "one"\n\n');
  });

  test('a golden that fails to parse is reported on every read and not kept', () => {
    const cache = new PreparedGoldens();
    const { parse, calls } = counting();
    expect(() => cache.get('{"format":"mcp-golden/1"\n', parse)).toThrow(/line 1/);
    expect(() => cache.get('{"format":"mcp-golden/1"\n', parse)).toThrow(/line 1/);
    expect(calls()).toBe(2);
    expect(cache.size).toBe(0);
  });

  test('keeps at most maxEntries goldens, the least recently used leaving first', () => {
    const cache = new PreparedGoldens({ maxEntries: 2 });
    const { parse, calls } = counting();
    const [a, b, c] = ['1', '2', '3'].map(golden) as [string, string, string];
    cache.get(a, parse);
    cache.get(b, parse);
    cache.get(a, parse);
    cache.get(c, parse);
    expect(cache.size).toBe(2);
    expect(calls()).toBe(3);
    cache.get(a, parse);
    expect(calls()).toBe(3);
    cache.get(b, parse);
    expect(calls()).toBe(4);
  });

  test('keeps at most maxChars characters, and never a golden larger than that', () => {
    const cache = new PreparedGoldens({ maxChars: 100 });
    const { parse, calls } = counting();
    const big = golden(`"${'x'.repeat(200)}"`);
    cache.get(big, parse);
    cache.get(big, parse);
    expect(calls()).toBe(2);
    expect(cache.size).toBe(0);
    for (const n of ['1', '2', '3', '4', '5', '6', '7', '8', '9']) cache.get(golden(`"${n.repeat(20)}"`), parse);
    expect(cache.size).toBeLessThanOrEqual(3);
  });

  test('a compare against a kept golden says what a compare against a fresh parse says', () => {
    const cache = new PreparedGoldens();
    const text = golden('{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a"}]}}');
    const received = parseTranscript(
      golden('{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"b"}]}}'),
    );
    const fresh = compareTranscripts(received, parseTranscript(text));
    expect(fresh.pass).toBe(false);
    expect(fresh.headline).toContain('block 0 differs at character 0');
    for (let run = 0; run < 2; run++) {
      expect(comparePrepared(prepareTranscript(received), cache.get(text, parseTranscript))).toEqual(fresh);
    }
    expect(comparePrepared(prepareTranscript(parseTranscript(text)), cache.get(text, parseTranscript)).pass).toBe(true);
  });
});

test('texts that differ only in a lone surrogate or a replacement character are two entries', () => {
  const cache = new PreparedGoldens();
  const { parse, calls } = counting();
  const withTarget = (target: string): string =>
    serializeTranscript({
      header: { format: GOLDEN_FORMAT, protocolVersion: '2025-11-25', transport: 'http', target, recorder: 'r' },
      frames: [],
    });
  // JSON.stringify escapes a lone surrogate; a store may still hand over text holding one as is.
  const lone = cache.get(withTarget('\uD83D x').replace('\\ud83d', '\uD83D'), parse);
  const replaced = cache.get(withTarget('\uFFFD x'), parse);
  expect(calls()).toBe(2);
  expect([lone.header.target, replaced.header.target]).toEqual(['\uD83D x', '\uFFFD x']);
});

test('a pair of surrogates across a hashing chunk boundary is not mistaken for two replacement characters', () => {
  const cache = new PreparedGoldens();
  const { parse, calls } = counting();
  const text = (middle: string): string => golden(`"${'a'.repeat(64 * 1024 - 200)}${middle}"`);
  // Find the offset that puts the pair's first half last in the first 64 KiB chunk.
  const base = text('😀');
  const shift = 64 * 1024 - 1 - base.indexOf('😀');
  const pair = cache.get(text(`${'b'.repeat(shift)}😀`), parse);
  const replaced = cache.get(text(`${'b'.repeat(shift)}\uFFFD\uFFFD`), parse);
  expect(calls()).toBe(2);
  expect(pair).not.toBe(replaced);
});

test('text read again from the same source is found while equal, and parsed again once changed', () => {
  const cache = new PreparedGoldens();
  const { parse, calls } = counting();
  const first = cache.get(golden('"one"'), parse, 'goldens/a.jsonl');
  expect(cache.get(golden('"one"'), parse, 'goldens/a.jsonl')).toBe(first);
  expect(calls()).toBe(1);
  // Same length, one character changed: the source's last text no longer matches, the content decides.
  const edited = cache.get(golden('"two"'), parse, 'goldens/a.jsonl');
  expect(calls()).toBe(2);
  expect(edited.streams[0]?.frames[0]?.raw).toBe('data: "two"\n\n');
  expect(cache.get(golden('"one"'), parse, 'goldens/a.jsonl')).toBe(first);
  expect(cache.get(golden('"one"'), parse, 'goldens/b.jsonl')).toBe(first);
  expect(calls()).toBe(2);
});
