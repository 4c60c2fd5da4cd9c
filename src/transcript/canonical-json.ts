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
  for (const key of Object.keys(value).sort()) {
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
