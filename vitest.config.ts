import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SlowFilesFirst } from './test/support/slow-files-first.js';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Tests that assert tight real-time figures (replay pacing p99 within 5 ms on a quiet machine; fresh
 * recordings of the reference server whose progress gaps must match the committed goldens within 50 %;
 * the streaming matchers passing a faithful path, 100 ms gaps within 50 ms) run in their own group,
 * after everything else, so they measure the product and not the load of other test files on a 2-core
 * machine, one file at a time.
 */
const TIMING = [
  'test/integration/replay/replay-server-pacing.test.ts',
  'src/reference-goldens.test.ts',
  'test/e2e/matchers-timing.test.ts',
  // The spacing row looks again when the check's own process stalled through a look; its pass case needs
  // the third look clean (52 ms gaps ± 26 ms), which the main group's load took from it once in CI.
  'src/check/stall-watch.test.ts',
  // An update rewrites a frame's time only when it moved beyond max(20 ms, 50 %) of its offset, as the
  // compare judges it: the SDK v2 case's server, recorder and verify share one worker, and beside three
  // busy workers an answer's 16 ms offset was recorded at 37 ms (a fourth changed line, CI at eca35b3).
  'test/e2e/quiet-updates.test.ts',
];

/**
 * The client check's tests: each runs the whole row set against a client process per row and fault (hundreds
 * of processes), and judges windows of ms (a resumption within retry -50/+200 ms). Beside the other files
 * they starved both: in CI, rows the other files time and the client rows themselves failed on load. They
 * run in a group of their own, after the main one and before the timing group.
 */
const CLIENT_CHECK = [
  'test/integration/client-check/client-check.test.ts',
  'test/integration/client-check/sdk-verdicts.test.ts',
  'test/integration/client-check/long-rows.test.ts',
];

/**
 * What makes a test file need a module graph of its own: it registers the matchers by importing
 * mcp-golden/vitest (whose per-file hooks run only in the first file of a worker that shares
 * modules, as a user's project would see), or it changes process-wide state another file would
 * inherit (the golden store, the environment, the working directory, mocked modules or globals).
 */
const GLOBAL_STATE =
  /^import (?:[^;]*? from )?['"]mcp-golden\/vitest['"]|\bsetGoldenStore\(|\bvi\.(?:stubEnv|stubGlobal|mock)\(|\bprocess\.env\.\w+ =(?!=)|\bprocess\.chdir\(/m;

function testFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.test.ts') && !path.split('/').includes('node_modules'))
    .map((path) => relative(root, join(root, dir, path)));
}

/** Test files that need isolation; the rest share their worker's modules (one import of the SDK per worker, not per file). */
const ISOLATED = [...testFiles('src'), ...testFiles('test')].filter(
  (path) =>
    !TIMING.includes(path) && !CLIENT_CHECK.includes(path) && GLOBAL_STATE.test(readFileSync(join(root, path), 'utf8')),
);

const EXCLUDE = ['**/node_modules/**', 'test/.tmp-projects/**'];

export default defineConfig({
  test: {
    globalSetup: ['test/support/build-dist.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Most test files wait on sockets, timers and child processes: two workers left a 2-core machine's
    // CPU half idle, three a quarter. Four keep it busy; the files that judge tight real-time figures
    // run in the timing group below, and the check's rows tell the machine's stalls from the gateway's.
    maxWorkers: 4,
    sequence: { sequencer: SlowFilesFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...EXCLUDE, ...TIMING, ...CLIENT_CHECK, ...ISOLATED],
          // Every test here stops what it starts and leaves no global state behind (see GLOBAL_STATE),
          // so files share their worker's modules instead of importing them afresh each.
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ISOLATED,
          exclude: EXCLUDE,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'client-check',
          include: CLIENT_CHECK,
          exclude: EXCLUDE,
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'timing',
          include: TIMING,
          // One file at a time: the reference goldens' 28 recordings (server and client in one worker)
          // beside the pacing p99 test made a fresh-clone CI run on a quiet machine fail it (replay p99
          // 18 ms against a plain server's 7 ms): each file then measured its neighbour, not the product.
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
