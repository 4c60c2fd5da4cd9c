import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { GOLDEN_EXTENSION } from '../store/golden-file.js';

/** Folder, next to a test file, that holds its goldens when no name is given. */
export const ADJACENT_DIR = '__goldens__';

/** A file-name-safe form of a test name. */
export function slug(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[^\w.-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase()
      .slice(0, 120) || 'golden'
  );
}

/** The folder of the goldens a test file owns (`__goldens__/<file>/` beside it). */
export function adjacentGoldenDir(testPath: string): string {
  return join(dirname(testPath), ADJACENT_DIR, basename(testPath).replace(/\.(test|spec)\.[cm]?[jt]sx?$/, ''));
}

/**
 * Where a golden lives:
 * - no name: `__goldens__/<test file>/<test name>.jsonl` next to the test;
 * - a bare name (`progress-10x100`): `goldens/<name>.jsonl` under the project root, shared with
 *   `mcp-golden record`;
 * - a relative path (`./x.jsonl`, `fixtures/x`): relative to the test file; absolute paths as given.
 */
export function resolveGoldenPath(name: string | undefined, testPath: string, testName: string, root: string): string {
  const withExt = (p: string): string => (p.endsWith(GOLDEN_EXTENSION) ? p : `${p}${GOLDEN_EXTENSION}`);
  if (name === undefined) return join(adjacentGoldenDir(testPath), withExt(slug(testName)));
  if (isAbsolute(name)) return withExt(name);
  if (name.startsWith('.') || name.includes('/')) return withExt(resolve(dirname(testPath), name));
  return join(root, 'goldens', withExt(name));
}
