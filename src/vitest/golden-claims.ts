import { relative, resolve } from 'node:path';

/**
 * What the assertions of this run claimed: per test, each golden path and the place in the test
 * file that claimed it, and a counter for unnamed calls. The state lives in the worker running a
 * test file and is reset before each attempt of a test (retries and repeats start afresh).
 */
const claims = new Map<string, Map<string, string>>();
const unnamed = new Map<string, number>();
const used = new Set<string>();
/** Test files whose tests ran this module's per-test hook; a shared module sees only the first. */
const hooked = new Set<string>();
const warned = new Set<string>();

const keyOf = (testPath: string, testName: string): string => `${testPath}\u0000${testName}`;

/** Forgets what the test claimed so far; called before each attempt of a test. */
export function resetTestClaims(testPath: string, testName: string): void {
  hooked.add(testPath);
  claims.delete(keyOf(testPath, testName));
  unnamed.delete(keyOf(testPath, testName));
}

/** The number of the next unnamed `toMatchGolden()` call in this test: 1, 2, ... */
export function nextUnnamedNumber(testPath: string, testName: string): number {
  const key = keyOf(testPath, testName);
  const next = (unnamed.get(key) ?? 0) + 1;
  unnamed.set(key, next);
  return next;
}

/** `file:line:column` of the first frame of the stack inside the test file, relative to `root`. */
export function callSite(testPath: string, root: string, stack: string | undefined = new Error().stack): string {
  const file = resolve(testPath);
  for (const line of (stack ?? '').split('\n')) {
    const match = /(?:file:\/\/)?(\/[^():]+):(\d+):(\d+)\)?\s*$/.exec(line);
    if (match?.[1] && resolve(match[1]) === file) return `${relative(root, file)}:${match[2]}:${match[3]}`;
  }
  return relative(root, file);
}

/**
 * Records that the current test compares with the golden at `path`, claimed at `site`. Returns the
 * site of an earlier claim of the same golden in this test, if any: two such assertions would
 * overwrite each other and the test would never be stable, so the caller fails.
 */
export function claimGolden(testPath: string, testName: string, path: string, site: string): string | undefined {
  const key = keyOf(testPath, testName);
  const mine = claims.get(key) ?? new Map<string, string>();
  claims.set(key, mine);
  const absolute = resolve(path);
  const earlier = mine.get(absolute);
  if (earlier !== undefined) return earlier;
  mine.set(absolute, site);
  used.add(absolute);
  return undefined;
}

/** True when an assertion of this run (in this worker) compared with the golden at `path`. */
export function isGoldenUsed(path: string): boolean {
  return used.has(resolve(path));
}

/**
 * A warning, once per test file, when `mcp-golden/vitest` was evaluated for another test file of
 * this worker and its hooks therefore never run for `testPath`: vitest with `isolate: false` shares
 * modules between files, and an imported module's top-level hooks register for the first file only.
 * `setupFiles` are evaluated for every file, so registering there works either way.
 */
export function sharedModuleWarning(testPath: string, root: string): string | undefined {
  if (hooked.size === 0 || hooked.has(testPath) || warned.has(testPath)) return undefined;
  warned.add(testPath);
  return `${relative(root, testPath)}: mcp-golden/vitest was loaded by another test file in this worker (vitest runs with isolate: false), so its hooks do not run here: retries do not renumber unnamed goldens, and this file's obsolete goldens are not reported. Add 'mcp-golden/vitest' to test.setupFiles in your vitest config; setup files run for every test file.`;
}
