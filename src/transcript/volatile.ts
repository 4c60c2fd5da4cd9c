import { type JSONPathQuery, jsonpath } from 'json-p3';
import { GoldenError } from '../errors.js';
import { NAMED_MASKS } from './named-masks.js';

/**
 * Values that legitimately change from run to run (timestamps, UUIDs, nonces), declared once and
 * used by `verify`, `toMatchGolden`, scenarios and the project config alike.
 *
 * @example
 * const volatile: VolatileOptions = { ignore: ['$..generatedAt'], mask: ['iso-time', 'uuid', 'req_[0-9a-f]+'] }
 */
export interface VolatileOptions {
  /** RFC 9535 JSONPath queries over each JSON-RPC message; the values they select are not compared. @default [] */
  readonly ignore?: readonly string[];
  /**
   * Regular expressions (source text, or `/source/flags`) or built-in mask names (`iso-time`,
   * `uuid`); every match inside a string is replaced by a placeholder on both sides. @default []
   */
  readonly mask?: readonly string[];
}

/** Placeholder written in place of an ignored value that cannot simply be left out (an array item). */
export const IGNORED = '<ignored>';

/** Placeholder of a user mask's match. */
export const MASKED = '<masked>';

interface CompiledMask {
  readonly pattern: RegExp;
  readonly placeholder: string;
}

/** Volatile options checked and compiled once, ready to apply to many messages. */
export interface CompiledVolatile {
  readonly options: Required<VolatileOptions>;
  /** True when there is nothing to ignore or mask. */
  readonly isEmpty: boolean;
  /** A copy of `message` with ignored values left out and masked matches replaced. */
  apply(message: unknown): unknown;
  /** `text` with masked matches replaced (for byte-level comparison). */
  maskText(text: string): string;
}

function compileMask(source: string, from: string): CompiledMask {
  const named = NAMED_MASKS[source];
  if (named) return named;
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(source);
  const [body, flags] = literal ? [literal[1] as string, literal[2] as string] : [source, ''];
  try {
    const pattern = new RegExp(body, flags.includes('g') ? flags : `${flags}g`);
    if (pattern.test('')) throw new Error('it matches the empty string');
    return { pattern, placeholder: MASKED };
  } catch (error) {
    throw new GoldenError(
      'E_USAGE',
      `Invalid mask ${JSON.stringify(source)} ${from}: ${(error as Error).message}. Expected a regular expression that matches at least one character, or one of the built-in masks ${Object.keys(NAMED_MASKS).join(', ')}.`,
    );
  }
}

function compilePath(path: string, from: string): JSONPathQuery {
  try {
    return jsonpath.compile(path);
  } catch (error) {
    throw new GoldenError(
      'E_USAGE',
      `Invalid ignore path ${JSON.stringify(path)} ${from}: ${(error as Error).message}. Expected an RFC 9535 JSONPath over a JSON-RPC message, such as "$.result.content[*].text" or "$..generatedAt".`,
    );
  }
}

function maskValue(value: unknown, masks: readonly CompiledMask[]): unknown {
  if (typeof value === 'string') {
    return masks.reduce((text, mask) => text.replace(mask.pattern, mask.placeholder), value);
  }
  if (Array.isArray(value)) return value.map((item) => maskValue(item, masks));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(out, key, {
        value: maskValue(item, masks),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

function removeAt(root: unknown, location: readonly (string | number)[]): void {
  let parent = root as Record<string | number, unknown>;
  for (const part of location.slice(0, -1)) parent = parent[part] as Record<string | number, unknown>;
  const last = location[location.length - 1] as string | number;
  if (Array.isArray(parent)) parent[last as number] = IGNORED;
  else delete parent[last];
}

/**
 * Checks and compiles volatile options; `from` says where they came from in errors (`on the command
 * line`, `in mcp-golden.config.json`). Invalid paths or patterns are `E_USAGE` errors naming the value.
 *
 * @example
 * const volatile = compileVolatile({ mask: ['iso-time'] })
 * volatile.apply({ result: { text: 'at 2026-11-23T17:48:02.174Z' } }) // { result: { text: 'at <iso-time>' } }
 */
export function compileVolatile(options: VolatileOptions = {}, from = ''): CompiledVolatile {
  const ignore = [...new Set(options.ignore ?? [])];
  const mask = [...new Set(options.mask ?? [])];
  const paths = ignore.map((path) => compilePath(path, from));
  const masks = mask.map((source) => compileMask(source, from));
  return {
    options: { ignore, mask },
    isEmpty: ignore.length === 0 && mask.length === 0,
    apply(message: unknown): unknown {
      if (paths.length === 0 && masks.length === 0) return message;
      // maskValue copies, so the caller's message is never changed by the removals below.
      const copy = maskValue(message, masks);
      for (const path of paths) {
        if (copy === null || typeof copy !== 'object') break;
        const locations = path
          .query(copy as Parameters<JSONPathQuery['query']>[0])
          .locations()
          .sort((a, b) => b.length - a.length);
        for (const location of locations) {
          if (location.length === 0) return IGNORED;
          removeAt(copy, location);
        }
      }
      return copy;
    },
    maskText(text: string): string {
      return masks.reduce((out, m) => out.replace(m.pattern, m.placeholder), text);
    },
  };
}

/** Both option sets together, in order, without repeats (global config first, then per golden, then flags). */
export function mergeVolatile(...sets: readonly (VolatileOptions | undefined)[]): VolatileOptions {
  const ignore = [...new Set(sets.flatMap((s) => s?.ignore ?? []))];
  const mask = [...new Set(sets.flatMap((s) => s?.mask ?? []))];
  return { ...(ignore.length > 0 && { ignore }), ...(mask.length > 0 && { mask }) };
}

/** Reads volatile options given as data (config file, scenario, golden header), naming `where` on error. */
export function parseVolatile(value: unknown, where: string): VolatileOptions {
  if (value === undefined) return {};
  const fail = (problem: string): never => {
    throw new GoldenError('E_USAGE', `Invalid volatile options ${where}: ${problem}.`);
  };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail('expected an object');
  const record = value as Record<string, unknown>;
  const out: { ignore?: string[]; mask?: string[] } = {};
  for (const key of ['ignore', 'mask'] as const) {
    const list = record[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.some((item) => typeof item !== 'string')) {
      fail(`"${key}" must be an array of strings, got ${JSON.stringify(list)}`);
    }
    out[key] = list as string[];
  }
  compileVolatile(out, where);
  return out;
}
