/**
 * Narrowing of parsed JSON: every module asks these two questions of an `unknown` value instead of
 * casting it to the shape it hopes for.
 */

/** A JSON object as parsed: string keys, values not yet known. */
export type JsonObject = Record<string, unknown>;

/** True for a JSON object: not `null`, not an array, not a primitive. */
export const isJsonObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The member `key` of an object; `undefined` when `value` is no object or has no such member. */
export const memberOf = (value: unknown, key: string): unknown => (isJsonObject(value) ? value[key] : undefined);
