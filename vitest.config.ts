import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/build-dist.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Timing assertions run on real timers over loopback; one file at a time per core keeps them honest.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
