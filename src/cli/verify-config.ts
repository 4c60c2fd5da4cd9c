import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { GoldenError } from '../errors.js';
import { GOLDEN_EXTENSION } from '../store/golden-file.js';
import { parseVolatile, type VolatileOptions } from '../transcript/volatile.js';

/** File name of the project config. */
export const CONFIG_FILE = 'mcp-golden.config.json';

/** The volatile part of the project config: global ignores and masks, and per-golden ones by golden name. */
export interface VerifyConfig {
  readonly volatile: VolatileOptions;
  readonly volatileFor: (file: string) => VolatileOptions | undefined;
}

/**
 * Reads `ignore`, `mask` and `goldens.<name>.{ignore,mask}` from `mcp-golden.config.json` in `dir`
 * (other keys belong to other commands and are left alone). No file means no options; a file that
 * is not valid JSON or holds invalid paths or patterns is a usage error naming it.
 *
 * @example
 * // mcp-golden.config.json
 * // { "mask": ["iso-time", "uuid"], "goldens": { "search": { "ignore": ["$.result.content[2].text"] } } }
 */
export async function loadVerifyConfig(dir: string): Promise<VerifyConfig> {
  const path = join(dir, CONFIG_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return { volatile: {}, volatileFor: () => undefined };
  }
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(text) as Record<string, unknown>;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('expected an object');
  } catch (error) {
    throw new GoldenError('E_USAGE', `Cannot read ${path}: ${(error as Error).message}. It must be a JSON object.`);
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
