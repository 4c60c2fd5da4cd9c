import { dirname, join, relative } from 'node:path';
import { GOLDEN_EXTENSION } from '../store/golden-file.js';
import type { GoldenStore } from '../store/golden-store.js';
import { findInterruptedWrites } from '../store/interrupted-writes.js';
import { getGoldenStore } from './active-golden-store.js';
import { isGoldenUsed } from './golden-claims.js';
import { ADJACENT_DIR, adjacentGoldenDir, isUnnamedGoldenOf } from './golden-path.js';
import type { UpdateMode } from './update-mode.js';

/** The parts of vitest's task tree the check reads. */
export interface TaskLike {
  readonly type?: string;
  readonly name?: string;
  readonly fullTestName?: string;
  readonly mode?: string;
  readonly filepath?: string;
  readonly tasks?: readonly TaskLike[];
  readonly result?: { readonly state?: string } | undefined;
}

/** A test of a file, by its full name (`suite > test`, as vitest's `currentTestName`), and whether it passed. */
export interface TestOutcome {
  readonly name: string;
  readonly passed: boolean;
}

/** Every test under `task` with its full name and whether it ran and passed in this run. */
export function testOutcomes(task: TaskLike, prefix: readonly string[] = []): TestOutcome[] {
  const path = task.filepath !== undefined || task.name === undefined ? prefix : [...prefix, task.name];
  if (task.type === 'test')
    return [{ name: task.fullTestName ?? path.join(' > '), passed: task.result?.state === 'pass' }];
  return (task.tasks ?? []).flatMap((child) => testOutcomes(child, path));
}

/** One line of the golden summary: what was found, and whether it was removed. */
export interface GoldenNotice {
  readonly kind: 'obsolete' | 'kept' | 'interrupted' | 'orphaned-file';
  readonly path: string;
  readonly removed: boolean;
}

const TEST_FILE_SUFFIX = /\.(test|spec)\.[cm]?[jt]sx?$/;

function say(line: string): void {
  process.stderr.write(`[mcp-golden] ${line}\n`);
}

/**
 * After a test file ran, reports what its `__goldens__/<file>/` folder holds that this run did not
 * claim, and with `-u` (update mode `all`) removes it:
 * - goldens no test used, when they belong to no test that failed or was skipped (`-t`, `.skip`,
 *   a failure before the assertion): those are kept, so updating while a test is broken loses nothing;
 * - temporary files of interrupted writes;
 * - folders of test files that no longer exist beside this one (reported by one file per folder).
 * In CI (`none`) and with `new` nothing is removed.
 */
export async function reportObsoleteGoldens(
  file: TaskLike,
  mode: UpdateMode,
  store: GoldenStore = getGoldenStore(),
  root: string = process.cwd(),
): Promise<GoldenNotice[]> {
  if (!file.filepath) return [];
  const notices: GoldenNotice[] = [];
  const remove = mode === 'all';
  const testFile = relative(root, file.filepath);
  const dir = adjacentGoldenDir(file.filepath);
  const names = await store.list(dir);
  const tests = testOutcomes(file);
  const unfinished = tests.filter((t) => !t.passed);
  for (const name of names.filter((n) => n.endsWith(GOLDEN_EXTENSION)).sort()) {
    const path = join(dir, name);
    if (isGoldenUsed(path) || unfinished.some((t) => isUnnamedGoldenOf(name, t.name))) continue;
    const shown = relative(root, path);
    // A golden named by no test could still be an explicitly named one of a test that failed early.
    const certain = unfinished.length === 0 || tests.some((t) => isUnnamedGoldenOf(name, t.name));
    if (remove && certain) {
      await store.remove(path);
      say(`removed obsolete golden ${shown}`);
    } else {
      const why = certain ? '' : ` (kept by -u while tests of ${testFile} fail or are skipped)`;
      say(`obsolete golden ${shown}: no test in ${testFile} uses it. Delete it, or run with -u to remove it${why}.`);
    }
    notices.push({ kind: certain ? 'obsolete' : 'kept', path, removed: remove && certain });
  }
  for (const interrupted of findInterruptedWrites(dir, names)) {
    const shown = relative(root, interrupted.path);
    if (remove) await store.remove(interrupted.path);
    say(
      `interrupted write: ${shown} was left by process ${interrupted.pid}, which stopped while writing ${relative(root, interrupted.target)}; that golden is unchanged (writes are atomic). ${remove ? 'Removed it.' : 'Delete it, or run with -u to remove it.'}`,
    );
    notices.push({ kind: 'interrupted', path: interrupted.path, removed: remove });
  }
  notices.push(...(await reportDeletedTestFiles(file.filepath, remove, store, root)));
  return notices;
}

/** Goldens in `__goldens__/<name>/` folders beside `testPath` whose test file is gone. */
async function reportDeletedTestFiles(
  testPath: string,
  remove: boolean,
  store: GoldenStore,
  root: string,
): Promise<GoldenNotice[]> {
  const parent = join(dirname(testPath), ADJACENT_DIR);
  const folders = (await store.list(parent)).filter((n) => !n.endsWith(GOLDEN_EXTENSION) && !n.startsWith('.'));
  const siblings = (await store.list(dirname(testPath))).filter((n) => n !== ADJACENT_DIR);
  const stem = (name: string): string => name.replace(TEST_FILE_SUFFIX, '');
  const live = siblings.filter((n) => folders.includes(stem(n))).sort();
  // One live test file per folder reports, so parallel workers do not repeat each other.
  if (live[0] === undefined || join(dirname(testPath), live[0]) !== testPath) return [];
  const notices: GoldenNotice[] = [];
  for (const folder of folders.filter((f) => !siblings.some((n) => stem(n) === f)).sort()) {
    const dir = join(parent, folder);
    for (const name of (await store.list(dir)).filter((n) => n.endsWith(GOLDEN_EXTENSION)).sort()) {
      const path = join(dir, name);
      const shown = relative(root, path);
      if (remove) await store.remove(path);
      say(
        remove
          ? `removed obsolete golden ${shown} (its test file ${folder}.test.* is gone)`
          : `obsolete golden ${shown}: no test file ${folder}.test.* exists beside ${relative(root, testPath)}. Delete it, or run with -u to remove it.`,
      );
      notices.push({ kind: 'orphaned-file', path, removed: remove });
    }
    if (remove) await store.removeEmptyDir(dir);
  }
  return notices;
}
