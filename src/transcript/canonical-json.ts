/**
 * `JSON.stringify` with object keys sorted (recursively), so equal values always give equal text.
 * `undefined` members are dropped, as `JSON.stringify` does.
 */
export function canonicalJson(value: unknown, indent?: number): string {
  return JSON.stringify(sortKeys(value), null, indent);
}

/** A deep copy of `value` whose objects have their keys in sorted order. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of sortedKeys(value)) {
    const member = (value as Record<string, unknown>)[key];
    // Plain assignment keeps the object fast (defineProperty makes a slow dictionary of it); only
    // `__proto__` needs defining.
    if (member === undefined) continue;
    if (key === '__proto__') setOwn(out, key, sortKeys(member));
    else out[key] = sortKeys(member);
  }
  return out;
}

/**
 * Sets an own, enumerable property even when the key is `__proto__`, which plain assignment would
 * turn into a prototype change (and so drop from the output).
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Most keys sorted in place by insertion; `Array.prototype.sort` takes longer lists. */
const INSERTION_SORT_LIMIT = 16;

/**
 * An object's own keys in `sort()`'s order (UTF-16 code units). Most objects have a few keys:
 * they are sorted in place, where `sort()` allocated a work array per object (the replay sorts
 * every live request's params to match it).
 */
function sortedKeys(value: object): string[] {
  const keys = Object.keys(value);
  if (keys.length > INSERTION_SORT_LIMIT) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    for (; j >= 0 && (keys[j] as string) > key; j--) keys[j + 1] = keys[j] as string;
    keys[j + 1] = key;
  }
  return keys;
}
