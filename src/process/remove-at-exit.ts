import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';

/** Temporary folders still in use, removed if the process exits first. */
const live = new Set<string>();
let hooked = false;

/**
 * Keeps `dir` (a temporary folder) from outliving the process: it is removed at exit unless
 * {@link removeNow} removed it first. An exit by `process.exit` (the CLI's signal handlers stop
 * children, then call it) skips every `finally` still pending; the `exit` event still runs.
 */
export function removeAtExit(dir: string): void {
  live.add(dir);
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const path of live) rmSync(path, { recursive: true, force: true });
  });
}

/** Removes `dir` now and forgets it. */
export async function removeNow(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  live.delete(dir);
}
