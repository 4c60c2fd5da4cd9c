import { basename } from 'node:path';
import { GOLDEN_EXTENSION } from '../store/golden-file.js';
import { parseVolatile, type VolatileOptions } from '../transcript/volatile.js';
import type { LoadedProjectConfig } from './project-config.js';

/** The volatile part of the project config: global ignores and masks, and per-golden ones by golden name. */
export interface VerifyConfig {
  readonly volatile: VolatileOptions;
  readonly volatileFor: (file: string) => VolatileOptions | undefined;
}

/**
 * The project config's `verify` section: global `ignore` and `mask`, and per golden
 * `goldens.<name>.{ignore,mask}`, each path and pattern compiled. No section means no options; an
 * invalid path or pattern is a usage error naming the file.
 *
 * @example
 * // mcp-golden.config.json
 * // { "verify": { "mask": ["iso-time", "uuid"], "goldens": { "search": { "ignore": ["$.result.content[2].text"] } } } }
 */
export function verifyConfigOf(loaded: LoadedProjectConfig | undefined): VerifyConfig {
  const verify = loaded?.config.verify;
  if (!loaded || !verify) return { volatile: {}, volatileFor: () => undefined };
  const { source } = loaded;
  const global = parseVolatile({ ignore: verify.ignore, mask: verify.mask }, `in ${source}`);
  const perGolden = new Map<string, VolatileOptions>();
  for (const [name, options] of Object.entries(verify.goldens ?? {})) {
    perGolden.set(name, parseVolatile(options, `for golden "${name}" in ${source}`));
  }
  return { volatile: global, volatileFor: (file) => perGolden.get(basename(file, GOLDEN_EXTENSION)) };
}
