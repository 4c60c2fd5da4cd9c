// The whole `npm test`: lint, type-check, build and every test, as CI runs it.
import { spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Adds the test-suite row (one run: it takes minutes). */
export async function run(rows) {
  // The suite's wall time depends on what else the machine runs: the note gives the cores and the
  // 1-minute load average before the run, so a figure from a busy machine reads as one.
  const load = loadavg()[0].toFixed(1);
  const started = performance.now();
  const result = spawnSync('npm', ['test'], { cwd: root, stdio: 'ignore', env: { ...process.env, CI: '' } });
  rows.add({
    figure: 'whole npm test (lint, type-check, build, all tests)',
    samples: (performance.now() - started) / 1000,
    unit: 's',
    target: { op: '<=', value: 120 },
    note: `${result.status === 0 ? 'passed' : `exit ${result.status}`}; ${availableParallelism()} cores, load ${load} before`,
  });
}
