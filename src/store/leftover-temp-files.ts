import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { findInterruptedWrites, type InterruptedWrite } from './interrupted-writes.js';

const SKIP: ReadonlySet<string> = new Set(['node_modules', '.git']);

/**
 * Lists the temporary files of interrupted golden writes under `dir` (recursively, at most `depth`
 * levels, skipping node_modules and .git), as {@link findInterruptedWrites} judges each folder. A
 * missing `dir` has none.
 *
 * @example
 * for (const t of await findLeftoverTempFiles('goldens')) console.warn(`leftover ${t.path}`)
 */
export async function findLeftoverTempFiles(dir: string, depth = 4): Promise<InterruptedWrite[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  const files = entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
  const found = findInterruptedWrites(dir, files);
  for (const entry of entries) {
    if (entry.isDirectory() && depth > 0 && !SKIP.has(entry.name)) {
      found.push(...(await findLeftoverTempFiles(join(dir, entry.name), depth - 1)));
    }
  }
  return found;
}

/** One line per leftover: what it is and the command that removes it. */
export function describeLeftovers(leftovers: readonly InterruptedWrite[]): string[] {
  return leftovers.map(
    (t) =>
      `leftover temporary file "${t.path}": a write of "${t.target}" by process ${t.pid} never finished (the golden itself is intact). Remove it: rm '${t.path.replaceAll("'", "'\\''")}'`,
  );
}
