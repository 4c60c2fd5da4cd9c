import { build } from '../../scripts/build.mjs';

/** Each vitest project runs the global setup (a module instance each): the build is checked once per process. */
const CHECKED = Symbol.for('mcp-golden.tests.build-checked');
const marks = globalThis as { [CHECKED]?: boolean };

/**
 * Builds dist/ before the suite, so tests that spawn the `mcp-golden` binary run the code under
 * test, never a stale build. It is compiled only when dist/ is missing or was built from other
 * sources, tsconfigs or TypeScript version (see scripts/build.mjs).
 */
export default async function setup(): Promise<void> {
  if (marks[CHECKED]) return;
  marks[CHECKED] = true;
  if (!(await build({ ifStale: true })))
    process.stdout.write('[mcp-golden tests] dist/ is up to date with src/; not rebuilt\n');
}
