import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { longRows } from '../../../src/client-check/rows/long.js';
import { runClientCheck } from '../../../src/client-check/run-client-check.js';
import type { ClientCheckReport } from '../../../src/client-check/vocabulary.js';
import { type CarefulFault, LONG_FAULT_ROWS, scaledCarefulClientCommand } from '../../support/client-faults.js';
import { runInProcess } from '../../support/in-process-cli.js';

// The --long rows. Their logic runs here 20 times shorter (longRows(SCALE): a 75 s call takes 3.75 s,
// the 180 s bound is 9 s), against the careful client with its timeouts scaled alike
// (--time-scale, careful-client/timeouts.mjs); tolerances (the 1 s cancel window) are not scaled.
// One real `check --long` run, of the SDK v2 wrapper, runs only with MCP_GOLDEN_LONG=1 (about 4 minutes).

const SCALE = 0.05;
const ROWS = longRows(SCALE);
const ALL = ROWS.flatMap((r) => r.eras.map((era) => `${r.id}@${era}`)).sort();

const failing = (report: ClientCheckReport): string[] =>
  report.results
    .filter((r) => r.verdict === 'fail')
    .map((r) => `${r.property}@${r.era}`)
    .sort();

/** At most two checks at once: each runs up to six clients on a shared machine. */
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

const check = (faults: readonly CarefulFault[], only?: string): Promise<ClientCheckReport> =>
  inTurn(() =>
    runClientCheck({
      command: scaledCarefulClientCommand(SCALE, ...faults),
      rows: ROWS,
      long: true,
      ...(only !== undefined && { only: [only] }),
    }),
  );

describe(`the --long rows at ${SCALE} of their length`, () => {
  it('are declared --long, in both eras, and are not in the default set', async () => {
    expect(ALL).toEqual(
      [
        'progress-endless',
        'progress-keeps-alive',
        'silent-then-result',
        'silent-then-result-comments',
        'timeout-cancels',
      ]
        .flatMap((id) => [`${id}@legacy`, `${id}@modern`])
        .sort(),
    );
    expect(ROWS.every((row) => row.long === true)).toBe(true);
    await expect(runClientCheck({ command: 'true', rows: ROWS })).rejects.toThrow(/No row of the client check matches/);
  });

  it('passes the careful client on every one', async () => {
    const report = await check([]);
    expect(report.results.map((r) => `${r.property}@${r.era}`).sort()).toEqual(ALL);
    expect(
      report.results.filter((r) => r.verdict !== 'pass').map((r) => `${r.property}@${r.era}: ${r.evidence}`),
    ).toEqual([]);
  }, 120_000);

  it.concurrent.each(Object.keys(LONG_FAULT_ROWS) as CarefulFault[])(
    'fails exactly the declared --long rows with --fault %s',
    async (fault) => {
      const expected = (LONG_FAULT_ROWS[fault] ?? []).map((row) => `${row.id}@${row.era}`).sort();
      const judged = failing(await check([fault]));
      // A row outside the fault's set runs once more, alone, before it counts (a starved client on a loaded machine).
      for (const key of judged.filter((k) => !expected.includes(k))) {
        const id = key.split('@')[0] as string;
        const again = await check([fault], id);
        if (!failing(again).includes(key)) judged.splice(judged.indexOf(key), 1);
      }
      expect(judged).toEqual(expected);
    },
    300_000,
  );
});

const dir = mkdtempSync(join(tmpdir(), 'mcp-golden-long-rows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.runIf(process.env.MCP_GOLDEN_LONG === '1')('check --long at full length (MCP_GOLDEN_LONG=1)', () => {
  it('judges the SDK v2 wrapper as measured', async () => {
    const wrapper = fileURLToPath(new URL('../../../clients/sdk-v2.mjs', import.meta.url));
    const json = join(dir, 'sdk-v2-long.json');
    const only = ['progress-keeps-alive', 'progress-endless', 'silent-then-result', 'timeout-cancels'];
    await runInProcess(
      [
        'check',
        '--client',
        `'${process.execPath}' '${wrapper}'`,
        '--long',
        '--json',
        json,
        ...only.flatMap((id) => ['--only', id]),
      ],
      { timeoutMs: 400_000 },
    );
    const report = JSON.parse(readFileSync(json, 'utf8')) as ClientCheckReport;
    expect(Object.fromEntries(report.results.map((r) => [`${r.property}@${r.era}`, r.verdict]))).toEqual(SDK_V2_LONG);
  }, 420_000);
});

/**
 * SDK v2 2.4.0 under `check --long`, as measured on 2026-11-27 (docs/client-authors.md has the table):
 * its 60 s request timeout is not reset by progress (the wrapper keeps the SDK's defaults), so the 75 s
 * call fails and the 70 s silences are warns; on timeout it cancels, in each era's way.
 */
const SDK_V2_LONG: Record<string, string> = {
  'progress-keeps-alive@legacy': 'fail',
  'progress-keeps-alive@modern': 'fail',
  'progress-endless@legacy': 'pass',
  'progress-endless@modern': 'pass',
  'silent-then-result@legacy': 'warn',
  'silent-then-result@modern': 'warn',
  'silent-then-result-comments@legacy': 'warn',
  'silent-then-result-comments@modern': 'warn',
  'timeout-cancels@legacy': 'pass',
  'timeout-cancels@modern': 'pass',
};
