// What one `mcp-golden` process start costs in CPU: the bundled bin (package.json's `bin`, dist/bin/)
// beside tsc's modules (dist/cli/main.js, each dependency loaded from node_modules) and `node -e 0`,
// interleaved, for the starts a user or a test pays for: `--help`, `check --help`, a usage error, and
// a stdio server (`serve --stdio`, `replay --stdio`) up to its answer to initialize, the start a
// gateway or a client pays once per session. CPU time is the process's own (user + system, every
// thread), read in the process by a one-line preload, so other load on the machine does not count.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { interleaved, median } from './kit.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BUNDLED = join(root, 'dist/bin/mcp-golden.js');
const UNBUNDLED = join(root, 'dist/cli/main.js');
const RUNS = Number(process.env.MCP_GOLDEN_BENCH_START_RUNS ?? 15);

// Written on fd 3 at exit, and on SIGUSR2 (a server, once it has answered).
const PRELOAD = `const { writeSync } = require('node:fs');
const report = () => { const u = process.cpuUsage(); try { writeSync(3, (u.user + u.system) / 1000 + '\\n'); } catch {} };
process.once('exit', report);
process.on('SIGUSR2', report);
`;

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
})}\n`;

/**
 * Runs `node <args>` with the preload and resolves to its CPU milliseconds: at exit, or for a server
 * (`answers`), at its first stdout line after the initialize request, then ends its stdin.
 */
function cpuOf(preload, args, { answers = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', preload, ...args], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    });
    let reported = '';
    let out = '';
    let err = '';
    let signalled = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdio[3].setEncoding('utf8').on('data', (text) => {
      reported += text;
      if (answers && reported.includes('\n')) child.stdin.end();
    });
    child.stderr.setEncoding('utf8').on('data', (text) => (err += text));
    child.stdout.setEncoding('utf8').on('data', (text) => {
      out += text;
      if (answers && !signalled && out.includes('\n')) {
        signalled = true;
        child.kill('SIGUSR2');
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const first = Number.parseFloat(reported);
      if (Number.isFinite(first) && (!answers || signalled)) resolve(first);
      else reject(new Error(`node ${args.join(' ')} exited with ${code} without a CPU figure: ${err}`));
    });
    if (answers) child.stdin.write(INITIALIZE);
    else child.stdin.end();
  });
}

const CASES = [
  { label: 'mcp-golden --help', args: ['--help'], help: true },
  { label: 'mcp-golden check --help', args: ['check', '--help'], help: true },
  { label: 'usage error (check --no-such-option)', args: ['check', '--no-such-option'], help: true },
  { label: 'serve --stdio, up to its initialize answer', args: ['serve', '--stdio'], answers: true },
  {
    label: 'replay --stdio, up to its initialize answer',
    args: ['replay', '--stdio', 'goldens/chatty-stdio.jsonl'],
    answers: true,
  },
];

/** Adds the CLI start rows: the bundled bin against tsc's modules, and the help starts against `node -e 0`. */
export async function run(rows) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-golden-bench-start-'));
  const preload = join(dir, 'cpu.cjs');
  writeFileSync(preload, PRELOAD);
  try {
    for (const c of CASES) {
      const samples = await interleaved(
        {
          bundled: () => cpuOf(preload, [BUNDLED, ...c.args], c),
          unbundled: () => cpuOf(preload, [UNBUNDLED, ...c.args], c),
          node: () => cpuOf(preload, ['-e', '0']),
        },
        { runs: RUNS, warmup: 1 },
      );
      const node = median(samples.node);
      const unbundled = median(samples.unbundled);
      const note = `node -e 0 ${node.toFixed(0)} ms; bundled ${(median(samples.bundled) / node).toFixed(1)}x, unbundled ${(unbundled / node).toFixed(1)}x node -e 0; ${RUNS} runs each, interleaved`;
      rows.add({
        figure: `CLI start CPU, ${c.label}: bundled bin vs tsc's modules`,
        samples: samples.bundled,
        unit: 'ms',
        target: { op: '<=', value: unbundled * 0.75, extra: ' (unbundled x0.75)' },
        peer: { name: 'unbundled', samples: samples.unbundled },
        note,
      });
      if (c.help)
        rows.add({
          figure: `CLI start CPU, ${c.label}: bundled bin vs node -e 0`,
          samples: samples.bundled,
          unit: 'ms',
          target: { op: '<=', value: node * 3, extra: ' (node -e 0 x3)' },
          peer: { name: 'node -e 0', samples: samples.node },
        });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
