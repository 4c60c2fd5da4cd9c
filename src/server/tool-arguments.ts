import { GoldenError } from '../errors.js';

/** An integer argument with inclusive bounds and a default, as the reference tools declare them. */
export interface IntegerArgument {
  readonly name: string;
  readonly minimum: number;
  readonly maximum: number;
  readonly default: number;
  readonly description: string;
}

/** JSON Schema (draft 2020-12 subset) of a tool's arguments, as listed by `tools/list`. */
export interface ArgumentsJsonSchema {
  [keyword: string]: unknown;
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  additionalProperties: false;
}

/** Builds the `inputSchema` advertised for a set of integer arguments. */
export function toJsonSchema(args: readonly IntegerArgument[]): ArgumentsJsonSchema {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const arg of args) {
    properties[arg.name] = {
      type: 'integer',
      minimum: arg.minimum,
      maximum: arg.maximum,
      default: arg.default,
      description: arg.description,
    };
  }
  return { type: 'object', properties, additionalProperties: false };
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array (${JSON.stringify(value)})`;
  switch (typeof value) {
    case 'string':
      return `the string ${JSON.stringify(value)}`;
    case 'number':
      return String(value);
    case 'boolean':
      return `the boolean ${value}`;
    case 'object':
      return `an object (${JSON.stringify(value)})`;
    default:
      return typeof value;
  }
}

/**
 * Validates `raw` against integer argument specs and fills in defaults. Throws a
 * {@link GoldenError} `E_ARGUMENTS` whose message names the field, the bound and the value.
 */
export function parseIntegerArguments(
  tool: string,
  specs: readonly IntegerArgument[],
  raw: unknown,
): Record<string, number> {
  if (raw !== undefined && (raw === null || typeof raw !== 'object' || Array.isArray(raw))) {
    throw new GoldenError(
      'E_ARGUMENTS',
      `Invalid arguments for tool "${tool}": arguments must be an object, got ${describeValue(raw)}.`,
    );
  }
  const given = (raw ?? {}) as Record<string, unknown>;
  const known = new Set(specs.map((s) => s.name));
  const unknown = Object.keys(given).filter((key) => !known.has(key));
  if (unknown.length > 0) {
    const expected = specs.length > 0 ? specs.map((s) => s.name).join(', ') : 'no arguments';
    throw new GoldenError(
      'E_ARGUMENTS',
      `Invalid arguments for tool "${tool}": unknown argument ${unknown.map((k) => `"${k}"`).join(', ')}. Expected ${expected}.`,
    );
  }
  const parsed: Record<string, number> = {};
  for (const spec of specs) {
    const value = given[spec.name];
    if (value === undefined) {
      parsed[spec.name] = spec.default;
      continue;
    }
    const bound = `an integer from ${spec.minimum} to ${spec.maximum}`;
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      throw new GoldenError(
        'E_ARGUMENTS',
        `Invalid arguments for tool "${tool}": "${spec.name}" must be ${bound}, got ${describeValue(value)}.`,
      );
    }
    if (value < spec.minimum || value > spec.maximum) {
      const side = value < spec.minimum ? `below the minimum ${spec.minimum}` : `above the maximum ${spec.maximum}`;
      throw new GoldenError(
        'E_ARGUMENTS',
        `Invalid arguments for tool "${tool}": "${spec.name}" must be ${bound}, got ${value} (${side}).`,
      );
    }
    parsed[spec.name] = value;
  }
  return parsed;
}
