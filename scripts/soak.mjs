#!/usr/bin/env node
// Soak test of `mcp-golden check` (not part of `npm test`): runs the whole battery N times
// against a faithful gateway while a CPU hog competes for the machine, and counts false
// verdicts (a faithful gateway judged failing) and processes of a run left behind.
//   npm run soak                      # 100 iterations
//   npm run soak -- --iterations 10
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { iterations: { type: 'string', default: '100' }, timeout: { type: 'string', default: '10000' } },
});
const iterations = Number(values.iterations);
const CLI = fileURLToPath(new URL('../dist/bin/mcp-golden.js', import.meta.url));
const GATEWAY = fileURLToPath(new URL('../test/support/faithful-gateway.mjs', import.meta.url));

/** Live processes whose environment carries the run's mark (zombies excluded). */
function leftovers(mark) {
  const needle = `MCP_GOLDEN_RUN_MARK=${mark}\0`;
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (`${readFileSync(`/proc/${entry}/environ`, 'latin1')}\0`.includes(needle)) found.push(Number(entry));
    } catch {}
  }
  return found;
}

function run(args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr = (stderr + d).slice(-2000)));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

// The hog: one busy process per core, so the check shares the CPU as on a loaded CI runner.
const hogs = Array.from({ length: 2 }, () => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
const stopHogs = () => {
  for (const hog of hogs) hog.kill('SIGKILL');
};
process.on('SIGINT', () => {
  stopHogs();
  process.exit(130);
});

const dir = await mkdtemp(join(tmpdir(), 'mcp-golden-soak-'));
let falseVerdicts = 0;
let leftoverTotal = 0;
const failures = new Map();
const started = Date.now();
try {
  for (let i = 1; i <= iterations; i++) {
    const mark = `soak-${process.pid}-${i}`;
    const json = join(dir, `report-${i}.json`);
    const t0 = Date.now();
    const { code, stderr } = await run(
      [
        'check',
        '--gateway',
        `'${process.execPath}' '${GATEWAY}' {upstream} {port}`,
        '--timeout',
        values.timeout,
        '--json',
        json,
      ],
      { MCP_GOLDEN_RUN_MARK: mark },
    );
    await new Promise((r) => setTimeout(r, 300));
    const left = leftovers(mark);
    leftoverTotal += left.length;
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }
    let failing = [];
    try {
      const report = JSON.parse(await readFile(json, 'utf8'));
      failing = report.results
        .filter((r) => r.verdict !== 'pass')
        .map((r) => `${r.property} (${r.verdict}): ${r.evidence}`);
    } catch {
      failing = [`no report (exit ${code}): ${stderr.trim().split('\n').at(-1)}`];
    }
    if (code !== 0 || failing.length > 0) falseVerdicts++;
    for (const f of failing) failures.set(f.split(':')[0], (failures.get(f.split(':')[0]) ?? 0) + 1);
    const ms = Date.now() - t0;
    console.log(
      `[soak] ${i}/${iterations}: exit ${code}, ${(ms / 1000).toFixed(1)} s, not passing ${failing.length}, leftover processes ${left.length}${failing.length ? `\n    ${failing.join('\n    ')}` : ''}`,
    );
  }
} finally {
  stopHogs();
  await rm(dir, { recursive: true, force: true });
}
console.log(
  `[soak] ${iterations} runs in ${((Date.now() - started) / 60000).toFixed(1)} min with ${hogs.length} CPU hogs: false verdicts ${falseVerdicts}, leftover processes ${leftoverTotal}`,
);
for (const [row, count] of failures) console.log(`[soak]   ${row}: ${count}`);
process.exitCode = falseVerdicts === 0 && leftoverTotal === 0 ? 0 : 1;
