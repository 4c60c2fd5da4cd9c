// `npm test`: lint, type-check and the whole vitest suite (whose global setup builds dist/).
//
// The three run at once rather than one after another: biome and `tsc --noEmit` are CPU work of a
// few seconds each, while the suite waits on sockets, timers and child processes most of its time,
// so on a 2-core machine overlapping them costs the suite little and saves their whole duration.
// Lint and type-check output is held back and printed after the suite's, so it is not interleaved;
// any of the three failing fails `npm test`. Arguments are passed on to vitest (`npm test -- file`).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureConformance } from './conformance/install.mjs';
import { ensureInspector } from './inspector/install.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (path) => fileURLToPath(new URL(`../node_modules/${path}`, import.meta.url));

/** Runs `node script ...args` in the repository root; resolves with its exit code and, if piped, its output. */
function run(script, args, piped) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: root,
      stdio: piped ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('error', (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

// The third-party tools the suite drives that cannot be devDependencies (they declare Node >= 22): the
// conformance suite and the MCP Inspector 2.12.0, each in its own folder. Installed once, before any test
// file starts (files running at once would race on one folder); a later run finds them and goes on.
try {
  ensureConformance();
  ensureInspector();
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

const checks = [
  { name: 'lint (biome check .)', done: run(bin('@biomejs/biome/bin/biome'), ['check', '.'], true) },
  {
    name: 'type-check (tsc -p tsconfig.json --noEmit)',
    done: run(bin('typescript/bin/tsc'), ['-p', 'tsconfig.json', '--noEmit'], true),
  },
];
const tests = await run(bin('vitest/vitest.mjs'), ['run', ...process.argv.slice(2)], false);

let failed = tests.code !== 0;
for (const check of checks) {
  const { code, output } = await check.done;
  if (code === 0) {
    process.stdout.write(`[npm test] ${check.name}: passed\n`);
    continue;
  }
  failed = true;
  process.stdout.write(`\n[npm test] ${check.name} failed (exit ${code}):\n${output}\n`);
}
if (tests.code !== 0) process.stdout.write(`[npm test] vitest failed (exit ${tests.code})\n`);
process.exit(failed ? 1 : 0);
