import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { splitLineEnds } from './line-ends.js';

const text = fc
  .array(fc.oneof(fc.constantFrom('\r', '\n', '\r\n', '\n\r', 'data: x', ''), fc.string({ maxLength: 5 })), {
    maxLength: 20,
  })
  .map((parts) => parts.join(''));

test.prop([text])('splits as the regular expression /(\\r\\n|\\r|\\n)/ does', (value) => {
  expect(splitLineEnds(value)).toEqual(value.split(/(\r\n|\r|\n)/));
});

test('keeps a CRLF pair whole and a lone CR or LF as one end each', () => {
  expect(splitLineEnds('a\r\nb\rc\nd\n\r')).toEqual(['a', '\r\n', 'b', '\r', 'c', '\n', 'd', '\n', '', '\r', '']);
});
