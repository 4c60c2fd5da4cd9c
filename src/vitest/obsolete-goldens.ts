import { readdir, rm } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { GOLDEN_EXTENSION } from '../store/golden-file.js';
import { adjacentGoldenDir } from './golden-path.js';
import type { UpdateMode } from './update-mode.js';

const used = new Set<string>();

/** Records that a test used the golden at `path` in this run. */
export function noteGoldenUsed(path: string): void {
  used.add(resolve(path));
}

/** Goldens in `dir` that no assertion used in this run. */
export async function findObsoleteGoldens(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names
    .filter((name) => name.endsWith(GOLDEN_EXTENSION))
    .map((name) => resolve(join(dir, name)))
    .filter((path) => !used.has(path));
}

/** The parts of vitest's task tree the check reads. */
export interface TaskLike {
  readonly type?: string;
  readonly mode?: string;
  readonly filepath?: string;
  readonly tasks?: readonly TaskLike[];
  readonly result?: { readonly state?: string } | undefined;
}

/** True when every test of the tree ran (no skip, todo, or filter): only then can a golden be called obsolete. */
export function everyTestRan(task: TaskLike): boolean {
  if (task.mode !== undefined && task.mode !== 'run') return false;
  if (task.type === 'test' && task.result?.state === 'skip') return false;
  return (task.tasks ?? []).every(everyTestRan);
}

/**
 * After a test file ran in full, reports goldens in its `__goldens__/<file>/` folder that no test
 * used; with `-u` (update mode `all`) deletes them. Returns what it reported.
 */
export async function reportObsoleteGoldens(file: TaskLike, mode: UpdateMode): Promise<string[]> {
  if (!file.filepath || !everyTestRan(file)) return [];
  const obsolete = await findObsoleteGoldens(adjacentGoldenDir(file.filepath));
  for (const path of obsolete) {
    const shown = relative(process.cwd(), path);
    if (mode === 'all') {
      await rm(path, { force: true });
      process.stderr.write(`[mcp-golden] removed obsolete golden ${shown}\n`);
    } else {
      process.stderr.write(
        `[mcp-golden] obsolete golden ${shown}: no test in ${relative(process.cwd(), file.filepath)} uses it. Delete it, or run with -u to remove it.\n`,
      );
    }
  }
  return obsolete;
}
