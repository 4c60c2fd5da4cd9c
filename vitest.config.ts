import { defineConfig } from 'vitest/config';
import { SlowFilesFirst } from './test/support/slow-files-first.js';

/**
 * Tests that assert tight real-time figures (replay pacing p99 within 5 ms; a pacer stopped 30 ms into
 * 20 ms steps; fresh recordings of the reference server whose progress gaps must match the committed
 * goldens within 50 %) run in their own group, alone, after everything else, so they measure the
 * product and not the load of other test files on a 2-core machine.
 */
const TIMING = [
  'src/replay/replay-server-pacing.test.ts',
  'src/replay/pacing.test.ts',
  'src/reference-goldens.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['test/support/build-dist.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Most test files wait on sockets, timers and child processes: two workers left a 2-core machine's
    // CPU half idle. A third keeps it busy without starving the timing judgements of the others.
    maxWorkers: 3,
    sequence: { sequencer: SlowFilesFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['**/node_modules/**', 'test/.tmp-projects/**', ...TIMING],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'timing',
          include: TIMING,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
