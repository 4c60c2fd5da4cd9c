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
 * - no name: `__goldens__/<test file>/<test name> <n>.jsonl` next to the test, `<n>` counting the
 *   unnamed calls of the test from 1, as vitest numbers snapshots;
 * - a bare name (`progress-10x100`): `goldens/<name>.jsonl` under the project root, the folder
 *   `mcp-golden record` writes;
 * - a relative path (`./x.jsonl`, `fixtures/x`): relative to the test file; absolute paths as given.
 */
export function resolveGoldenPath(
  name: string | undefined,
  testPath: string,
  testName: string,
  root: string,
  unnamedNumber = 1,
): string {
  const withExt = (p: string): string => (p.endsWith(GOLDEN_EXTENSION) ? p : `${p}${GOLDEN_EXTENSION}`);
  if (name === undefined) return join(adjacentGoldenDir(testPath), withExt(`${slug(testName)}-${unnamedNumber}`));
  if (isAbsolute(name)) return withExt(name);
  if (name.startsWith('.') || name.includes('/')) return withExt(resolve(dirname(testPath), name));
  return join(root, 'goldens', withExt(name));
}

/** True when `fileName` (in the test file's `__goldens__` folder) is an unnamed golden of test `testName`. */
export function isUnnamedGoldenOf(fileName: string, testName: string): boolean {
  const stem = fileName.endsWith(GOLDEN_EXTENSION) ? fileName.slice(0, -GOLDEN_EXTENSION.length) : fileName;
  const base = slug(testName);
  return stem === base || (stem.startsWith(`${base}-`) && /^\d+$/.test(stem.slice(base.length + 1)));
}

/** True when `path` is inside a `__goldens__` folder (written by the matcher, not by `mcp-golden record`). */
export function isAdjacentGolden(path: string): boolean {
  return path.split(/[\\/]/).includes(ADJACENT_DIR);
}
