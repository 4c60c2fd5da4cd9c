import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { GoldenError } from '../errors.js';
import { GOLDEN_EXTENSION } from '../store/golden-file.js';

/**
 * The golden files named by `paths`: files as given, directories searched recursively for
 * `*.jsonl` in name order. A missing path, or nothing found at all, is a usage error naming the
 * path as given. With `cwd`, relative paths are read from there and the files come back absolute.
 */
export async function findGoldens(given: readonly string[], cwd?: string): Promise<string[]> {
  const files: string[] = [];
  for (const [index, path] of (cwd === undefined ? given : given.map((p) => resolve(cwd, p))).entries()) {
    const info = await stat(path).catch(() => undefined);
    if (!info) {
      const near = await nearGolden(path, given[index] as string);
      throw new GoldenError(
        'E_USAGE',
        `No golden at "${given[index]}": no such file or directory. ${near ? `Did you mean "${near}"? ` : ''}Name golden files or directories of them.`,
      );
    }
    if (!info.isDirectory()) {
      files.push(path);
      continue;
    }
    const entries = await readdir(path, { recursive: true });
    files.push(
      ...entries
        .filter((entry) => entry.endsWith(GOLDEN_EXTENSION))
        .sort()
        .map((entry) => join(path, entry)),
    );
  }
  const unique = [...new Set(files)];
  if (unique.length === 0) {
    throw new GoldenError(
      'E_USAGE',
      `No goldens found in ${given.map((p) => `"${p}"`).join(', ') || 'the arguments'}: expected *${GOLDEN_EXTENSION} files. Record them first with \`npx mcp-golden record --stdio '<server command>' --scenarios scenarios.json --out goldens\`.`,
    );
  }
  return unique;
}

/** The golden file a missing path most likely meant (`a.json` or `a` for an existing `a.jsonl`), as given. */
async function nearGolden(path: string, given: string): Promise<string | undefined> {
  const stem = path.endsWith('.json') ? path.slice(0, -'.json'.length) : path;
  if (stem.endsWith(GOLDEN_EXTENSION)) return undefined;
  const found = await stat(`${stem}${GOLDEN_EXTENSION}`).then(
    (info) => info.isFile(),
    () => false,
  );
  const givenStem = given.endsWith('.json') ? given.slice(0, -'.json'.length) : given;
  return found ? `${givenStem}${GOLDEN_EXTENSION}` : undefined;
}
