// mcp-golden benchmarks: `npm run bench` (builds first). Prints every figure as the median of its runs
// with their spread, its target, and its ratio against a peer measured side by side in the same run
// (or against the target). Flags:
//   --quick        skip the areas that take minutes (the whole npm test)
//   --only a,b     run only these areas (names below)
//   --json FILE    also write the rows as JSON
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { BenchRows } from './bench/kit.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Every area, in the order it runs; `slow` ones are skipped by --quick. */
const AREAS = [
  { name: 'pacing', load: () => import('./bench/pacing.mjs') },
  { name: 'tap', load: () => import('./bench/tap.mjs') },
  { name: 'compare', load: () => import('./bench/compare.mjs') },
  { name: 'scaling', load: () => import('./bench/scaling.mjs') },
  { name: 'sessions', load: () => import('./bench/sessions.mjs') },
  { name: 'verify', load: () => import('./bench/verify.mjs') },
  { name: 'check', load: () => import('./bench/check.mjs') },
  { name: 'start', load: () => import('./bench/start.mjs') },
  { name: 'suite', load: () => import('./bench/suite.mjs'), slow: true },
];

const argv = process.argv.slice(2);
const flagValue = (flag) => {
  const at = argv.indexOf(flag);
  if (at < 0) return undefined;
  const value = argv[at + 1];
  if (!value || value.startsWith('--')) {
    console.error(
      `[mcp-golden] ${flag} needs a value: npm run bench -- ${flag} ${flag === '--json' ? 'bench.json' : AREAS[0].name}`,
    );
    process.exit(2);
  }
  return value;
};
const only = flagValue('--only')?.split(',');
const jsonFile = flagValue('--json');
const unknown = only?.filter((name) => !AREAS.some((a) => a.name === name)) ?? [];
if (unknown.length > 0) {
  console.error(
    `[mcp-golden] unknown bench area ${unknown.join(', ')}: expected one of ${AREAS.map((a) => a.name).join(', ')}`,
  );
  process.exit(2);
}

const rows = new BenchRows();
for (const area of AREAS) {
  if (only ? !only.includes(area.name) : argv.includes('--quick') && area.slow) continue;
  const started = performance.now();
  await (await area.load()).run(rows);
  process.stderr.write(`bench: ${area.name} done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

const version = JSON.parse(
  execFileSync('node', ['-p', 'JSON.stringify(require("./package.json").version)'], { cwd: root, encoding: 'utf8' }),
);
const machine = {
  cpus: cpus().length,
  cpu: cpus()[0]?.model ?? 'unknown cpu',
  memGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
};
console.log(
  `mcp-golden ${version} bench · node ${machine.node} · ${machine.cpus} cores (${machine.cpu}) · ${machine.memGiB} GiB\n`,
);
console.log(rows.table());
if (jsonFile) {
  writeFileSync(jsonFile, `${JSON.stringify({ machine, rows: rows.rows.map((r) => r.data) }, null, 2)}\n`);
  console.log(`wrote ${jsonFile}`);
}
