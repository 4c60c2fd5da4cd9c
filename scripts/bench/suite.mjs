// The whole `npm test`: lint, type-check, build and every test, as CI runs it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Adds the test-suite row (one run: it takes minutes). */
export async function run(rows) {
  const started = performance.now();
  const result = spawnSync('npm', ['test'], { cwd: root, stdio: 'ignore', env: { ...process.env, CI: '' } });
  rows.add({
    figure: 'whole npm test (lint, type-check, build, all tests)',
    samples: (performance.now() - started) / 1000,
    unit: 's',
    target: { op: '<=', value: 120 },
    note: result.status === 0 ? 'passed' : `exit ${result.status}`,
  });
}
