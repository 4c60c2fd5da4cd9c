import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { findJsonValueSpans, type JsonValueSpan, replaceSpans } from './json-spans.js';

const KEYS: ReadonlySet<string> = new Set(['id', 'requestId', 'progressToken', 'a\nb', 'é']);

/** The scanner as first written, one character at a time: the fast one must agree with it on any text. */
function referenceSpans(text: string, keys: ReadonlySet<string>): JsonValueSpan[] {
  const white = (ch: string | undefined): boolean => ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';
  const skipString = (start: number): number => {
    let i = start + 1;
    while (i < text.length) {
      const ch = text[i];
      if (ch === '\\') i += 2;
      else if (ch === '"') return i + 1;
      else i++;
    }
    return i;
  };
  const skipWhite = (start: number): number => {
    let i = start;
    while (i < text.length && white(text[i])) i++;
    return i;
  };
  const spans: JsonValueSpan[] = [];
  const stack: string[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '{' || ch === '[') {
      stack.push(ch);
      i++;
    } else if (ch === '}' || ch === ']') {
      stack.pop();
      i++;
    } else if (ch === '"') {
      const end = skipString(i);
      const afterKey = skipWhite(end);
      if (stack.at(-1) === '{' && text[afterKey] === ':') {
        const key = JSON.parse(text.slice(i, end)) as string;
        const start = skipWhite(afterKey + 1);
        if (keys.has(key)) {
          const first = text[start];
          const type: JsonValueSpan['type'] =
            first === '"'
              ? 'string'
              : first === '{'
                ? 'object'
                : first === '['
                  ? 'array'
                  : first === 't' || first === 'f' || first === 'n'
                    ? 'literal'
                    : 'number';
          let end2 = start;
          if (type === 'string') end2 = skipString(start);
          else if (type === 'object' || type === 'array') end2 = start + 1;
          else while (end2 < text.length && !white(text[end2]) && !',}]'.includes(text[end2] as string)) end2++;
          spans.push({ key, depth: stack.length, start, end: end2, type });
        }
        i = start;
      } else {
        i = end;
      }
    } else {
      i++;
    }
  }
  return spans;
}

const outcome = (run: () => JsonValueSpan[]): unknown => {
  try {
    return run();
  } catch (error) {
    return `threw ${(error as Error).name}`;
  }
};

/** Text made of the pieces that steer the scanner: quotes, escapes, brackets, keys, whitespace. */
const jsonish = fc
  .array(
    fc.oneof(
      fc.constantFrom('{', '}', '[', ']', '"', '\\', '\\"', '\\\\', ':', ',', ' ', '\n', '\t', '\u0001'),
      fc.constantFrom(
        '"id"',
        '"ids"',
        '"i"',
        '"requestId"',
        '"progressToken"',
        '"a\\nb"',
        '"\\u00e9"',
        '"é"',
        '"other"',
      ),
      fc.constantFrom('12', '-3.5e2', 'true', 'null', '"x"', '"<y>"', 'é', '😀'),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

describe('findJsonValueSpans', () => {
  test.prop([jsonish])('agrees with a character-by-character scan on any text, malformed included', (text) => {
    expect(outcome(() => findJsonValueSpans(text, KEYS))).toEqual(outcome(() => referenceSpans(text, KEYS)));
  });

  test.prop([fc.jsonValue({ maxDepth: 4 })])('agrees with a character-by-character scan on JSON', (value) => {
    for (const text of [JSON.stringify({ id: 1, v: value, requestId: 'r' }), JSON.stringify(value, null, 2)]) {
      expect(findJsonValueSpans(text, KEYS)).toEqual(referenceSpans(text, KEYS));
    }
  });

  test.prop([
    fc.array(
      fc.dictionary(
        fc.constantFrom('id', 'ids', 'i', 'di', 'requestId', 'requestI', 'progressToken', 'progressTokens', 'é', 'x'),
        fc.jsonValue({ maxDepth: 2 }),
      ),
      { maxLength: 3 },
    ),
  ])('tells wanted keys from keys they begin or end, in objects and not in arrays', (objects) => {
    for (const text of [JSON.stringify(objects), JSON.stringify({ list: objects, ...objects[0] })]) {
      expect(findJsonValueSpans(text, KEYS)).toEqual(referenceSpans(text, KEYS));
    }
  });

  test('reads a key written with escapes, and refuses one with a raw control character as JSON.parse does', () => {
    const text = '{"\\u0069d":1,"ids":2,"i":3,"a\\nb":4,"list":["id",5,{"id":6}]}';
    const spans = findJsonValueSpans(text, KEYS);
    expect(spans.map((s) => [s.key, text.slice(s.start, s.end), s.depth])).toEqual([
      ['id', '1', 1],
      ['a\nb', '4', 1],
      ['id', '6', 3],
    ]);
    expect(() => findJsonValueSpans('{"i\u0001d":1}', KEYS)).toThrow(SyntaxError);
    // Malformed text: a string and a colon in an array is no member; closings before any opening change nothing.
    expect(findJsonValueSpans('["id":1]', KEYS)).toEqual([]);
    expect(findJsonValueSpans('}]{"id":1}', KEYS)).toEqual(referenceSpans('}]{"id":1}', KEYS));
    expect(findJsonValueSpans('}]{"id":1}', KEYS)).toHaveLength(1);
  });

  test('finds members after a long string with escaped quotes and backslashes', () => {
    const long = `${'a\\"b\\\\'.repeat(20_000)}`;
    const text = `{"text":"${long}","id":7,"params":{"requestId":"r-1"}}`;
    const spans = findJsonValueSpans(text, KEYS);
    expect(spans.map((s) => [s.key, text.slice(s.start, s.end), s.depth])).toEqual([
      ['id', '7', 1],
      ['requestId', '"r-1"', 2],
    ]);
    expect(replaceSpans(text, [{ start: spans[0]?.start ?? 0, end: spans[0]?.end ?? 0, text: '0' }])).toBe(
      text.replace('"id":7', '"id":0'),
    );
  });
});
