import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_ROWS } from '../../../src/client-check/rows.js';
import type { ClientCheckReport } from '../../../src/client-check/vocabulary.js';
import {
  type CarefulFault,
  CLIENT_FAULT_ROWS,
  carefulClientCommand,
  failingRowKeys,
} from '../../support/client-faults.js';
import { runInProcess } from '../../support/in-process-cli.js';

// `check --client` against clients we know: the careful client passes every row in both eras, each of
// its faults fails exactly the rows test/support/client-faults.ts declares, and a command the shell
// cannot run is a setup error with no rows. The clients are processes by nature (the check runs them).

const dir = mkdtempSync(join(tmpdir(), 'mcp-golden-client-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every row and era the default set runs. */
const ALL = CLIENT_ROWS.filter((r) => !r.long)
  .flatMap((r) => r.eras.map((era) => `${r.id}@${era}`))
  .sort();

/** At most two checks at once: each runs up to six clients, on a machine shared with other tests. */
let running = 0;
const waiting: (() => void)[] = [];
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= 2) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

async function check(command: string, file: string, extra: readonly string[] = []): Promise<ClientCheckReport> {
  const json = join(dir, file);
  const result = await runInProcess(['check', '--client', command, '--json', json, ...extra], { timeoutMs: 300_000 });
  const report = JSON.parse(readFileSync(json, 'utf8')) as ClientCheckReport;
  expect(result.code, result.stderr).toBe(report.pass ? 0 : 1);
  return report;
}

const failing = (report: ClientCheckReport): string[] =>
  report.results
    .filter((r) => r.verdict === 'fail')
    .map((r) => `${r.property}@${r.era}`)
    .sort();

describe('check --client', () => {
  it('lists --client CMD in check --help', async () => {
    const { code, stdout } = await runInProcess(['check', '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/--client CMD/);
  });

  it('exits 3 with the shell message and no rows when the client command does not exist', async () => {
    const json = join(dir, 'missing.json');
    const { code, stderr, stdout } = await runInProcess(['check', '--client', '/no/such/mcp-client', '--json', json]);
    expect(code).toBe(3);
    expect(stderr).toMatch(/shell exited 127 \(.*not found/);
    expect(stdout).toBe('');
    expect(existsSync(json)).toBe(false);
  });

  it('exits 3 with the client’s stderr and no rows when the client exits before any request', async () => {
    // `node` runs, but the script is not there: exit 1 (MODULE_NOT_FOUND), no request, no contract line.
    const json = join(dir, 'no-start.json');
    const client = `node ${join(dir, 'no-such-client.mjs')}`;
    const { code, stderr, stdout } = await runInProcess([
      'check',
      '--client',
      client,
      '--only',
      'http-5xx',
      '--json',
      json,
    ]);
    expect(code, stdout).toBe(3);
    expect(stderr).toMatch(
      /client exited 1 before it sent any request or printed a contract line \(.*Cannot find module/s,
    );
    expect(stdout).toBe('');
    expect(existsSync(json)).toBe(false);
  });

  it('refuses gateway options with --client', async () => {
    const { code, stderr } = await runInProcess(['check', '--client', 'x', '--gateway', 'y']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--client judges a client; --gateway goes with/);
  });

  it('is a usage error when --only matches no row of the era', async () => {
    const { code, stderr } = await runInProcess([
      'check',
      '--client',
      'x',
      '--client-era',
      'modern',
      '--only',
      'session-404',
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/No row of the client check matches --only "session-404" in era\(s\) modern/);
  });

  it('writes the rows to --junit and --html: a failing row with its evidence, a passing one without', async () => {
    const junit = join(dir, 'wrong-id.xml');
    const html = join(dir, 'wrong-id.html');
    const report = await check(carefulClientCommand('cancel-wrong-id'), 'wrong-id.json', [
      '--only',
      'cancel-abort',
      '--junit',
      junit,
      '--html',
      html,
    ]);
    expect(failing(report)).toEqual(['cancel-abort@legacy']);
    const legacy = report.results.find((r) => r.era === 'legacy');
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="mcp-golden" tests="2" failures="1" skipped="0"/);
    const cases = xml.split(/\n {4}(?=<testcase )/).slice(1);
    expect(cases).toHaveLength(2);
    const [first, second] = cases as [string, string];
    expect(first).toMatch(/^<testcase name="cancel-abort \[legacy\]" classname="mcp-golden.check.client"/);
    expect(first).toContain('<failure message="no notifications/cancelled naming request');
    expect(first).toContain((legacy?.evidence ?? '').replaceAll('"', '&quot;').slice(0, 60));
    expect(second).toMatch(/^<testcase name="cancel-abort \[modern\]"/);
    expect(second).not.toContain('<failure');
    const page = readFileSync(html, 'utf8');
    expect(page).toMatch(/^<!doctype html>/i);
    expect(page).toContain('cancel-abort (legacy)');
    expect(page).toContain('cancel-abort (modern)');
    expect(page.match(/<tr class="row fail">/g)).toHaveLength(1);
    expect(page.match(/<tr class="row pass">/g)).toHaveLength(1);
    // Each row's lanes: what the server saw (the call, the cancel naming the wrong id) and what the client printed.
    expect(page).toContain('server POST tools/call id');
    expect(page).toMatch(/client call 0: aborted at \d/);
    expect(page).toContain('notifications/cancelled');
  }, 200_000);

  it('passes the careful client on every row in both eras, in under 120 s', async () => {
    const report = await check(carefulClientCommand(), 'careful.json');
    expect(report.results.map((r) => `${r.property}@${r.era}`).sort()).toEqual(ALL);
    expect(
      report.results.filter((r) => r.verdict !== 'pass').map((r) => `${r.property}@${r.era}: ${r.evidence}`),
    ).toEqual([]);
    expect(report.durationMs).toBeLessThan(120_000);
  }, 200_000);

  // The timeout faults give up after a minute or more, later than any default row runs: long-rows.test.ts judges them.
  const faults = (Object.keys(CLIENT_FAULT_ROWS) as CarefulFault[]).filter(
    (fault) => CLIENT_FAULT_ROWS[fault].length > 0,
  );
  it.concurrent.each(faults)(
    'fails exactly the declared rows with --fault %s',
    async (fault) => {
      // get-flap takes 20 s and only one fault is about it: the others run every other row.
      const rows = fault === 'get-no-backoff' ? ALL : ALL.filter((key) => !key.startsWith('get-flap@'));
      const only = [...new Set(rows.map((key) => key.split('@')[0] as string))].flatMap((id) => ['--only', id]);
      const report = await inTurn(() => check(carefulClientCommand(fault), `${fault}.json`, only));
      const expected = failingRowKeys(fault);
      // A row outside the fault's is run once more, alone, before it counts: on this shared 2-core machine a
      // starved client can miss a row judged on a window of ms (resume-priming-close: retry -50/+200 ms)
      // or on a deadline (seen in CI: session-404 with no-cancel, frame-cr with reissue-same-id, each
      // passing alone). A row the fault really breaks fails again.
      const judged = failing(report);
      for (const key of judged.filter((k) => !expected.includes(k))) {
        const [id, era] = key.split('@') as [string, string];
        const again = await inTurn(() =>
          check(carefulClientCommand(fault), `${fault}-${id}-again.json`, ['--only', id, '--client-era', era]),
        );
        if (!failing(again).includes(key)) judged.splice(judged.indexOf(key), 1);
      }
      // Likewise a row of the fault's that passed: a starved client can read two writes the row spaces
      // apart in one read (seen in CI: frame-utf8-split@legacy passed utf8-per-chunk). It must fail alone.
      for (const key of expected.filter((k) => !judged.includes(k))) {
        const [id, era] = key.split('@') as [string, string];
        const again = await inTurn(() =>
          check(carefulClientCommand(fault), `${fault}-${id}-missed.json`, ['--only', id, '--client-era', era]),
        );
        if (failing(again).includes(key)) judged.push(key);
      }
      judged.sort();
      expect(judged).toEqual(expected);
    },
    // Its clock runs while it waits its turn behind the other faults' checks (two at a time).
    600_000,
  );
});
