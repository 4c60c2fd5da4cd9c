import { readFileSync } from 'node:fs';
import { readdir, rm, rmdir } from 'node:fs/promises';
import { writeFileAtomic } from './golden-file.js';

/**
 * Where goldens are read from and written to. The vitest matcher does no file I/O itself: it goes
 * through a store, as vitest's snapshot state goes through its `SnapshotEnvironment`, so a test or
 * another runner can substitute one (in memory, remote, read-only).
 */
export interface GoldenStore {
  /** The text of the golden at `path`, or `undefined` when there is none. */
  read(path: string): Promise<string | undefined>;
  /** Writes `text` to `path` atomically (a crash never leaves half a golden), creating folders. */
  write(path: string, text: string): Promise<void>;
  /** Removes the file at `path`, if any. */
  remove(path: string): Promise<void>;
  /** Names of the entries of folder `dir` (files and folders), `[]` when it does not exist. */
  list(dir: string): Promise<string[]>;
  /** Removes folder `dir` when it is empty; does nothing otherwise. */
  removeEmptyDir(dir: string): Promise<void>;
}

/** The store on the local file system (the default). */
export const fileGoldenStore: GoldenStore = {
  async read(path) {
    // Read at once into one flat string: an asynchronous read with an encoding builds a rope of
    // chunks, which the first comparison or parse copies whole again, and bytes then their text are
    // two copies too. The parse that follows is synchronous anyway, and takes longer than the read.
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  },
  write: writeFileAtomic,
  async remove(path) {
    await rm(path, { force: true });
  },
  async list(dir) {
    return readdir(dir).catch(() => []);
  },
  async removeEmptyDir(dir) {
    await rmdir(dir).catch(() => undefined);
  },
};
