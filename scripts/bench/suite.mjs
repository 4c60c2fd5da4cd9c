// The whole `npm test`: lint, type-check, build and every test, as CI runs it.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Adds the test-suite row (one run: it takes minutes). */
export async function run(rows) {
  // The suite's wall time depends on what else the machine runs: the note gives the cores and the
  // 1-minute load average before the run, so a figure from a busy machine reads as one.
  const load = loadavg()[0].toFixed(1);
  const started = performance.now();
  const result = spawnSync('npm', ['test'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, CI: '', NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  if (result.status !== 0) {
    // A failed run is evidence too: say which tests failed, not only the exit code.
    const output = `${result.stdout}${result.stderr}`;
    const log = join(tmpdir(), `mcp-golden-bench-npm-test-${process.pid}.log`);
    writeFileSync(log, output);
    const failed = output.split('\n').filter((line) => /FAIL|×|\bfailed\b/.test(line));
    process.stderr.write(
      `[mcp-golden] bench: npm test failed (whole output in ${log}):\n${failed.slice(0, 40).join('\n')}\n`,
    );
  }
  rows.add({
    figure: 'whole npm test (lint, type-check, build, all tests)',
    samples: (performance.now() - started) / 1000,
    unit: 's',
    target: { op: '<=', value: 120 },
    note: `${result.status === 0 ? 'passed' : `exit ${result.status}`}; ${availableParallelism()} cores, load ${load} before`,
  });
}
