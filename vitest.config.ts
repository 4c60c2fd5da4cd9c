import { defineConfig } from 'vitest/config';

/**
 * Tests that assert tight real-time figures (replay pacing p99 within 5 ms, recorded timing against
 * the committed goldens) run in their own group, one file at a time, after everything else, so
 * they measure the product and not the load of other test files on a 2-core machine.
 */
const TIMING = ['src/replay/replay-server.test.ts', 'src/record/record-goldens.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/support/build-dist.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
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
