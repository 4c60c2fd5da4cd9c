import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** A test file's temporary folder. */
export interface TempDir {
  /** The folder's path, once the file's tests run; removed, with what is in it, after its last test. */
  readonly dir: string;
}

/**
 * Registers the file's `beforeAll` that makes a temporary folder (named `prefix`...) under the
 * system's temporary directory, and the `afterAll` that removes it; its path is on the returned
 * object once the tests run. Call it before the file's own hooks that use the folder.
 */
export function useTempDir(prefix: string): TempDir {
  const temp: { dir?: string } = {};
  beforeAll(async () => {
    temp.dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (temp.dir !== undefined) await rm(temp.dir, { recursive: true, force: true });
  });
  return temp as TempDir;
}
