import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Name of the temporary file `writeFileAtomic` writes before its rename: `.<name>.<pid>.<8 hex>.tmp`. */
export const TEMP_FILE_PATTERN = /^\.(.+)\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/** A temporary file left by a write that never reached its rename (a crash, a kill). */
export interface LeftoverTempFile {
  readonly path: string;
  /** The file the write was meant to produce. */
  readonly target: string;
  /** The process that wrote it. */
  readonly pid: number;
}

const SKIP: ReadonlySet<string> = new Set(['node_modules', '.git']);

/**
 * Lists leftover temporary files of atomic golden writes under `dir` (recursively, at most
 * `depth` levels, skipping node_modules and .git). A missing `dir` has none.
 *
 * @example
 * for (const t of await findLeftoverTempFiles('goldens')) console.warn(`leftover ${t.path}`)
 */
export async function findLeftoverTempFiles(dir: string, depth = 4): Promise<LeftoverTempFile[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const found: LeftoverTempFile[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (depth > 0 && !SKIP.has(entry.name)) found.push(...(await findLeftoverTempFiles(path, depth - 1)));
      continue;
    }
    const match = TEMP_FILE_PATTERN.exec(entry.name);
    if (entry.isFile() && match) found.push({ path, target: join(dir, match[1] as string), pid: Number(match[2]) });
  }
  return found;
}

/** One line per leftover: what it is and the command that removes it. */
export function describeLeftovers(leftovers: readonly LeftoverTempFile[]): string[] {
  return leftovers.map(
    (t) =>
      `leftover temporary file "${t.path}": a write of "${t.target}" by process ${t.pid} never finished (the golden itself is intact). Remove it: rm '${t.path.replaceAll("'", "'\\''")}'`,
  );
}
