import { describe, expect, it } from 'vitest';
import { formatDifference } from './json-difference.js';

const line = (expected: string, actual: string): string =>
  formatDifference({ where: 'tools/call result', path: '$.result.content[0].text', kind: 'changed', expected, actual });

describe('formatDifference', () => {
  it('escapes combining marks and says when two strings differ only in Unicode normalisation', () => {
    expect(line('café', 'cafe\u0301')).toBe(
      'tools/call result $.result.content[0].text: "café" != "cafe\\u0301" (the same text in another Unicode normalisation form (expected NFC, got NFD))',
    );
  });

  it.each([
    ['a BOM', '\ufeffhello', '"\\ufeffhello"'],
    ['U+2028', 'a\u2028b', '"a\\u2028b"'],
    ['a zero-width space', 'a\u200bb', '"a\\u200bb"'],
    ['a no-break space', 'a\u00a0b', '"a\\u00a0b"'],
  ])('escapes %s, so two look-alike strings print differently', (_, actual, shown) => {
    const expected = actual.replace(/[\ufeff\u2028\u200b]/g, '').replace('\u00a0', ' ');
    const printed = line(expected, actual);
    expect(printed).toContain(` != ${shown}`);
    const [left, right] = printed.slice(printed.indexOf(': ') + 2).split(' != ');
    expect(left).not.toBe(right?.split(' (')[0]);
  });
});
