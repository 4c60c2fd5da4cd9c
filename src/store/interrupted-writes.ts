import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** A temporary file left beside a golden by a write that never finished (killed process, power loss). */
export interface InterruptedWrite {
  /** Path of the temporary file. */
  readonly path: string;
  /** Path of the golden it was being written to (unchanged: writes are atomic). */
  readonly target: string;
  /** Id of the process that wrote it. */
  readonly pid: number;
}

// writeFileAtomic names its temporary file `.<golden name>.<pid>.<8 hex>.tmp`.
const TEMP_NAME = /^\.(.+)\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/** The temporary name `writeFileAtomic` uses for `path`, written by process `pid`. */
export function temporaryNameOf(path: string, pid: number, nonce: string): string {
  return join(dirname(path), `.${basename(path)}.${pid}.${nonce}.tmp`);
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Temporary files among `names` (the entries of folder `dir`) whose writer is no longer running:
 * what an interrupted write leaves. A write still in progress in another process is not one.
 */
export function findInterruptedWrites(
  dir: string,
  names: readonly string[],
  running: (pid: number) => boolean = isRunning,
): InterruptedWrite[] {
  const found: InterruptedWrite[] = [];
  for (const name of names) {
    const match = TEMP_NAME.exec(name);
    if (!match?.[1] || !match[2]) continue;
    const pid = Number(match[2]);
    if (running(pid)) continue;
    found.push({ path: join(dir, name), target: join(dir, match[1]), pid });
  }
  return found;
}

const SKIP: ReadonlySet<string> = new Set(['node_modules', '.git']);

/**
 * Lists the temporary files of interrupted golden writes under `dir` (recursively, at most `depth`
 * levels, skipping node_modules and .git), as {@link findInterruptedWrites} judges each folder. A
 * missing `dir` has none.
 *
 * @example
 * for (const t of await findInterruptedWritesUnder('goldens')) console.warn(`interrupted write ${t.path}`)
 */
export async function findInterruptedWritesUnder(dir: string, depth = 4): Promise<InterruptedWrite[]> {
  let entries: Dirent[];
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
      found.push(...(await findInterruptedWritesUnder(join(dir, entry.name), depth - 1)));
    }
  }
  return found;
}

/** One line per interrupted write: what it is and the command that removes its temporary file. */
export function describeInterruptedWrites(writes: readonly InterruptedWrite[]): string[] {
  return writes.map(
    (t) =>
      `interrupted write "${t.path}": a write of "${t.target}" by process ${t.pid} never finished (the golden itself is intact). Remove it: rm '${t.path.replaceAll("'", "'\\''")}'`,
  );
}
