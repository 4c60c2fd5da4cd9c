import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds the slowest test files take on the 2-core machine with four workers, for a run without vitest's results cache
 * (a fresh clone in CI; the main group's slowest files as the fresh-clone CI run at 8c5f6f0 timed them).
 * vitest's own order then is by file size, which starts the short files that
 * run a whole `check` battery last, so they would form the tail of the run.
 */
const ESTIMATES: Readonly<Record<string, number>> = {
  // The longest file of the main group (262 s in the last fresh-clone CI, its parts one after another):
  // it starts first, so its three lanes overlap the rest of the group.
  'test/e2e/packed-package.test.ts': 262,
  'test/integration/client-check/client-check.test.ts': 240,
  'test/integration/check/run-check-slow-start.test.ts': 94,
  'test/integration/answering/conformance.test.ts': 28,
  'test/integration/client-check/sdk-verdicts.test.ts': 80,
  'test/integration/client-check/long-rows.test.ts': 90,
  'test/e2e/third-party-gateways/nginx.test.ts': 43,
  'test/e2e/third-party-gateways/supergateway-stdio-client.test.ts': 46,
  'test/e2e/session-scenario.test.ts': 17,
  'test/reliability/serve-bounds.test.ts': 22,
  'test/reliability/check-processes.test.ts': 37,
  'test/e2e/update-workflow.test.ts': 40,
  'test/e2e/third-party-gateways/supergateway-stdio-upstream.test.ts': 23,
  'test/integration/check/run-check-bridge.test.ts': 21,
  'test/integration/check/run-check-fault-rows.test.ts': 18,
  'test/e2e/third-party-gateways/misbehaving-processes.test.ts': 17,
  'src/check/run-check.test.ts': 16,
  'test/integration/clients/careful-client-faults.test.ts': 22,
  'src/check/rows/tasks.test.ts': 19,
  'test/integration/clients/careful-client-streams.test.ts': 18,
  'test/api-report.test.ts': 16,
  'test/e2e/replay-passthrough.test.ts': 24,
  'test/integration/check/run-check-eras.test.ts': 21,
  'test/integration/check/run-check-accel.test.ts': 14,
  'test/integration/cli/check-eras.test.ts': 14,
  'test/integration/check/run-check-delivery-faults.test.ts': 12,
  'test/integration/check/run-check-benign.test.ts': 12,
  'src/replay/replay-server.test.ts': 11,
  'test/integration/check/run-check-stream-faults.test.ts': 11,
  'test/integration/check/run-check-faults.test.ts': 11,
  'test/integration/cli/record-modern.test.ts': 10,
  'test/e2e/lint.test.ts': 10,
  'test/e2e/inspector-replay.test.ts': 30,
  'src/msw/create-replay-handlers.test.ts': 9,
  'test/e2e/verify-server-everything.test.ts': 8,
  'test/integration/replay/replay-any-transport.test.ts': 8,
  'test/e2e/record-third-party.test.ts': 8,
  'src/cli/serve-command.test.ts': 7,
  'src/cli/record-command.test.ts': 7,
  'test/integration/lint/modern-rules.test.ts': 7,
  'test/integration/cli/verify-drift.test.ts': 7,
  'test/integration/cli/record-target.test.ts': 7,
  'src/cli/verify-command.test.ts': 6,
  'test/e2e/record-proxy-sessions.test.ts': 6,
  'test/e2e/html-report.test.ts': 6,
  'test/integration/server/tight-write.test.ts': 6,
};
/** A file neither cached nor estimated: after the known slow ones, before the known quick ones. */
const UNKNOWN_SECONDS = 5;

/**
 * Starts the slowest files first, so the long ones overlap the many short ones instead of running
 * at the end on too few workers: by the last run's durations (vitest's cache) where known, else by
 * {@link ESTIMATES}. Groups (`sequence.groupOrder`) keep vitest's order; projects of one group are
 * interleaved.
 */
export class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const seconds = (spec: TestSpecification): number => {
      const path = relative(root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      return cached ? cached.duration / 1000 : (ESTIMATES[path] ?? UNKNOWN_SECONDS);
    };
    return [...files].sort(
      (a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || seconds(b) - seconds(a),
    );
  }
}
