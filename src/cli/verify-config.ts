import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { GoldenError } from '../errors.js';
import { GOLDEN_EXTENSION } from '../store/golden-file.js';
import { parseVolatile, type VolatileOptions } from '../transcript/volatile.js';

import { CONFIG_FILE } from './record-config.js';

/** The volatile part of the project config: global ignores and masks, and per-golden ones by golden name. */
export interface VerifyConfig {
  readonly volatile: VolatileOptions;
  readonly volatileFor: (file: string) => VolatileOptions | undefined;
}

async function readSection(dir: string): Promise<{ value: unknown; path: string } | undefined> {
  for (const [file, pick] of [
    [CONFIG_FILE, (v: Record<string, unknown>) => v.verify],
    ['package.json', (v: Record<string, unknown>) => (v['mcp-golden'] as Record<string, unknown> | undefined)?.verify],
  ] as const) {
    const path = join(dir, file);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      continue;
    }
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(text) as Record<string, unknown>;
    } catch (error) {
      throw new GoldenError(
        'E_USAGE',
        `Invalid config in ${path}: not valid JSON (${(error as Error).message}). Fix the file.`,
      );
    }
    const section = value !== null && typeof value === 'object' ? pick(value) : undefined;
    if (section !== undefined) return { value: section, path: file === CONFIG_FILE ? path : `${path} ("mcp-golden")` };
  }
  return undefined;
}

/**
 * Reads the `verify` section of `mcp-golden.config.json` (or of the `"mcp-golden"` key in
 * package.json) in `dir`: global `ignore` and `mask`, and per golden `goldens.<name>.{ignore,mask}`.
 * No section means no options; invalid JSON, paths or patterns are usage errors naming the file.
 *
 * @example
 * // mcp-golden.config.json
 * // { "verify": { "mask": ["iso-time", "uuid"], "goldens": { "search": { "ignore": ["$.result.content[2].text"] } } } }
 */
export async function loadVerifyConfig(dir: string): Promise<VerifyConfig> {
  const found = await readSection(dir);
  if (!found) return { volatile: {}, volatileFor: () => undefined };
  const { path } = found;
  const value = found.value as Record<string, unknown>;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new GoldenError(
      'E_USAGE',
      `Invalid "verify" in ${path}: expected an object with "ignore", "mask" and "goldens".`,
    );
  }
  for (const key of Object.keys(value)) {
    if (!['ignore', 'mask', 'goldens'].includes(key)) {
      throw new GoldenError(
        'E_USAGE',
        `Invalid "verify" in ${path}: unknown key "${key}"; expected ignore, mask or goldens.`,
      );
    }
  }
  const global = parseVolatile({ ignore: value.ignore, mask: value.mask }, `in ${path}`);
  const goldens = value.goldens;
  if (goldens !== undefined && (goldens === null || typeof goldens !== 'object' || Array.isArray(goldens))) {
    throw new GoldenError(
      'E_USAGE',
      `Invalid "goldens" in ${path}: expected an object from golden name to { "ignore": [...], "mask": [...] }.`,
    );
  }
  const perGolden = new Map<string, VolatileOptions>();
  for (const [name, options] of Object.entries((goldens ?? {}) as Record<string, unknown>)) {
    perGolden.set(name, parseVolatile(options, `for golden "${name}" in ${path}`));
  }
  return { volatile: global, volatileFor: (file) => perGolden.get(basename(file, GOLDEN_EXTENSION)) };
}
