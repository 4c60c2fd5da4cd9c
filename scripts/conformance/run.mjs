// `npm run conformance`: the official MCP conformance suite (0.2.0-alpha.12; scenarios server-stateless
// and http-header-validation at the 2026-07-28 wire) against three servers: the SDK v2 2.4.0 server
// (createMcpHandler, legacy: 'stateless', serving the reference tools: the reference), `mcp-golden serve`,
// `mcp-golden replay` of goldens recorded from serve (both eras), and a replay of the 2025 ones alone
// (re-framed for 2026-07-28 clients); and `serve --modern-only` beside createMcpHandler with legacy: 'reject'.
// Prints each scenario's table of checks and each server's tally; exits 1 when serve or a replay fails a
// check its SDK v2 reference passes.
// `--markdown` prints the tables as Markdown (for docs/server-authors.md).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from '../build.mjs';
import { ensureConformance } from './install.mjs';
import { startSdkV2Reference } from './sdk-v2-reference.mjs';
import { markdown, RECORDED_SCENARIOS, regressions, runScenario, SCENARIOS, table, tally } from './suite.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(root, 'dist', 'cli', 'main.js');

/** Starts `mcp-golden ...args` and resolves with the URL of its first stdout line and a stop function. */
function startCli(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      const url = out.match(/http:\/\/127\.0\.0\.1:\d+\/\S*/)?.[0];
      if (!url) return;
      const stop = () =>
        new Promise((done) => {
          child.once('close', done);
          child.kill('SIGINT');
        });
      resolve({ url, stop });
    });
    child.on('close', (code) => reject(new Error(`[mcp-golden] mcp-golden ${args.join(' ')} exited ${code}: ${err}`)));
  });
}

function record(url, era, dir) {
  const scenarios = join(dir, `scenarios-${era}.json`);
  writeFileSync(scenarios, JSON.stringify(RECORDED_SCENARIOS.map((s) => ({ ...s, name: `${s.name}-${era}` }))));
  const run = spawnSync(
    process.execPath,
    [cli, 'record', '--target', url, '--scenarios', scenarios, '--era', era, '--out', dir],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  if (run.status !== 0) throw new Error(`[mcp-golden] recording the ${era} goldens from serve failed:\n${run.stderr}`);
}

/** Runs `scenario` against each server, prints its table and tallies; false when a target fails a check `reference` passes. */
async function judge(scenario, servers, reference, targets, asMarkdown) {
  const started = Date.now();
  const results = {};
  for (const [name, url] of Object.entries(servers)) results[name] = await runScenario(url, scenario);
  const rows = table(results);
  const tallies = Object.entries(results).map(([name, checks]) => {
    const { passed, total } = tally(checks);
    return `${name} ${passed}/${total}`;
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(`\n## ${scenario.name} (${seconds} s): ${tallies.join(', ')}\n\n`);
  if (asMarkdown) process.stdout.write(`${markdown(rows, Object.keys(servers))}\n`);
  else {
    for (const row of rows) {
      const cells = Object.keys(servers).map((name) => row.statuses[name].padEnd(8));
      process.stdout.write(`${row.check.padEnd(70)} ${cells.join(' ')}\n`);
    }
  }
  const worse = regressions(rows, reference, targets);
  for (const r of worse)
    process.stdout.write(`FAIL ${r.target}: ${r.check} is ${r.status} (${reference}: SUCCESS) ${r.error ?? ''}\n`);
  return worse.length === 0;
}

async function main() {
  const asMarkdown = process.argv.includes('--markdown');
  ensureConformance();
  await build({ ifStale: true });
  const goldens = mkdtempSync(join(tmpdir(), 'mcp-golden-conformance-goldens-'));
  const stops = [];
  let failed = false;
  try {
    const sdk = await startSdkV2Reference({ legacy: 'stateless' });
    stops.push(() => sdk.close());
    const serve = await startCli(['serve', '--port', '0']);
    stops.push(serve.stop);
    record(serve.url, 'modern', goldens);
    record(serve.url, 'legacy', goldens);
    rmSync(join(goldens, 'scenarios-modern.json'));
    rmSync(join(goldens, 'scenarios-legacy.json'));
    const replay = await startCli(['replay', goldens, '--pace', 'instant', '--port', '0']);
    stops.push(replay.stop);
    const legacy = RECORDED_SCENARIOS.map((s) => join(goldens, `${s.name}-legacy.jsonl`));
    const crossEra = await startCli(['replay', ...legacy, '--pace', 'instant', '--port', '0']);
    stops.push(crossEra.stop);
    const sdkReject = await startSdkV2Reference({ legacy: 'reject' });
    stops.push(() => sdkReject.close());
    const modernOnly = await startCli(['serve', '--modern-only', '--port', '0']);
    stops.push(modernOnly.stop);
    // Each group: its reference first, then what must pass every check the reference passes.
    const groups = [
      { 'SDK v2': sdk.url, serve: serve.url, replay: replay.url, 'replay of 2025 goldens': crossEra.url },
      { "SDK v2 (legacy: 'reject')": sdkReject.url, 'serve --modern-only': modernOnly.url },
    ];
    for (const servers of groups) {
      const [reference, ...targets] = Object.keys(servers);
      for (const scenario of SCENARIOS)
        if (!(await judge(scenario, servers, reference, targets, asMarkdown))) failed = true;
    }
  } finally {
    for (const stop of stops.reverse()) await stop();
    rmSync(goldens, { recursive: true, force: true });
  }
  if (failed) {
    process.stderr.write(
      '[mcp-golden] serve or a replay fails a conformance check its SDK v2 reference passes (see FAIL above)\n',
    );
    process.exit(1);
  }
}

await main();
