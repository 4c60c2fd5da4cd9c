import { GoldenError } from '../errors.js';

/** Parses a whole-number CLI option within bounds, or throws `E_USAGE` naming the option. */
export function parseIntegerOption(
  name: string,
  raw: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new GoldenError('E_USAGE', `Invalid --${name} "${raw}": expected a whole number from ${min} to ${max}.`);
  }
  return value;
}
