import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { canonicalJson } from './canonical-json.js';

/** Keys sorted as `sort()` sorts them, the way canonical JSON was first written. */
function reference(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reference);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (member !== undefined) Object.defineProperty(out, key, { value: reference(member), enumerable: true });
  }
  return out;
}

/** Keys that sort differently by code unit than by any other reading: digits, case, accents, astral characters. */
const key = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.constantFrom('a', 'B', 'é', 'e', '😀', '\uffff', '10', '9', '01', '_meta', '__proto__', 'Z', 'z'),
);

describe('canonicalJson', () => {
  test.prop([fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 40 })])(
    'writes object keys in sort() order, few keys or many',
    (value) => {
      expect(canonicalJson(value)).toBe(JSON.stringify(reference(value)));
      expect(canonicalJson({ nested: [value, { value }] }, 2)).toBe(
        JSON.stringify(reference({ nested: [value, { value }] }), null, 2),
      );
    },
  );
});
