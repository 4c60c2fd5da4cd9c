// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, installed by install.mjs into
// .conformance/) against one server URL, reads its checks.json, and compares servers check by check.
// Used by `npm run conformance` (run.mjs) and by test/integration/answering/conformance.test.ts.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { globSync } from './glob.mjs';
import { CONFORMANCE_CLI, CONFORMANCE_DIR } from './install.mjs';

const GLOB_SYNC = fileURLToPath(new URL('./node20-glob-sync.mjs', import.meta.url));

/**
 * The scenarios the table is made of, with how each is selected: `server-stateless` is required by the
 * 2026-07-28 requirement set; `http-header-validation` is still "pending" in 0.2.0-alpha.12, so it runs
 * only when named with `--suite pending`.
 */
export const SCENARIOS = [
  { name: 'server-stateless', args: ['--spec-version', '2026-07-28'] },
  { name: 'http-header-validation', args: ['--spec-version', '2026-07-28', '--suite', 'pending'] },
];

/**
 * The goldens the replay serves, recorded from serve in each era: the call http-header-validation makes
 * (the first listed tool, `progress`, with `arguments: {}`), and one with progress.
 */
export const RECORDED_SCENARIOS = [
  { name: 'conformance-progress-default', tool: 'progress', arguments: {} },
  { name: 'conformance-progress', tool: 'progress', arguments: { steps: 2, step_ms: 1 }, progressToken: 'c-1' },
];

/** Runs one scenario of the suite against `url`; resolves with its checks, in the suite's order. */
export async function runScenario(url, scenario, { timeoutMs = 120_000 } = {}) {
  const out = mkdtempSync(join(tmpdir(), 'mcp-golden-conformance-'));
  try {
    const args = ['--import', GLOB_SYNC, CONFORMANCE_CLI, 'server', '--url', url, '--scenario', scenario.name];
    const { code, output } = await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [...args, ...scenario.args, '-o', out], {
        cwd: CONFORMANCE_DIR,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      });
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.stderr.on('data', (d) => (text += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('error', reject);
      child.on('close', (exit, signal) => {
        clearTimeout(timer);
        resolve({ code: exit ?? signal, output: text });
      });
    });
    const files = globSync('**/checks.json', { cwd: out });
    if (files.length !== 1) {
      throw new Error(
        `[mcp-golden] the conformance suite wrote ${files.length} checks.json for ${scenario.name} against ${url} (exit ${code}); expected 1. Its output:\n${output}`,
      );
    }
    return JSON.parse(readFileSync(join(out, files[0]), 'utf8')).map((check) => ({
      id: check.id,
      status: check.status,
      ...(check.errorMessage !== undefined && { error: check.errorMessage }),
    }));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * The suite's own tally of one run, as its "Passed: 24/28, 4 failed, 1 warnings" line counts: passed
 * of passed + failed (skipped checks and warnings are in neither).
 */
export function tally(checks) {
  const count = (status) => checks.filter((check) => check.status === status).length;
  const passed = count('SUCCESS');
  const failed = count('FAILURE');
  return { passed, total: passed + failed, failed, warnings: count('WARNING'), skipped: count('SKIPPED') };
}

/**
 * One row per check (a check id the suite emits more than once, such as sep-2575-http-server-meta-invalid-400
 * for each probe, gets a row per emission, numbered), with each server's status.
 */
export function table(results) {
  const names = Object.keys(results);
  const rows = [];
  const seen = new Map();
  for (const [index, check] of (results[names[0]] ?? []).entries()) {
    const n = (seen.get(check.id) ?? 0) + 1;
    seen.set(check.id, n);
    const key = n === 1 ? check.id : `${check.id} #${n}`;
    const statuses = {};
    const errors = {};
    for (const name of names) {
      const same = (results[name] ?? []).filter((c) => c.id === check.id)[n - 1];
      statuses[name] = same?.status ?? 'ABSENT';
      if (same?.error !== undefined) errors[name] = same.error;
    }
    rows.push({ index, check: key, statuses, errors });
  }
  return rows;
}

/** Rows where `reference` passes and one of `targets` does not: what must stay empty. */
export function regressions(rows, reference, targets) {
  return rows.flatMap((row) =>
    row.statuses[reference] !== 'SUCCESS'
      ? []
      : targets
          .filter((target) => row.statuses[target] !== 'SUCCESS')
          .map((target) => ({ check: row.check, target, status: row.statuses[target], error: row.errors[target] })),
  );
}

/** The table as Markdown, one column per server. */
export function markdown(rows, names) {
  const head = `| check | ${names.join(' | ')} |\n|---|${names.map(() => '---').join('|')}|`;
  const lines = rows.map((row) => `| ${row.check} | ${names.map((name) => row.statuses[name]).join(' | ')} |`);
  return [head, ...lines].join('\n');
}
