import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CRASH_ROW, runGatewayCheck } from '../../../src/check/run-check.js';

const crashing = fileURLToPath(new URL('../../support/crashing-gateway.mjs', import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-crash-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a gateway that dies mid-run', () => {
  test('is named as its own failure, and the rows run on a fresh gateway process', async () => {
    const marker = join(dir, 'crashed');
    const report = await runGatewayCheck({
      gateway: `node ${crashing} {upstream} {port} ${marker} multibyte_output`,
      only: ['unicode', 'multibyte', 'concurrent'],
      timeoutMs: 5000,
    });
    expect(report.results.map((r) => [r.property, r.verdict])).toEqual([
      ['unicode', 'pass'],
      ['large multibyte output (8 x 64 Ki chars)', 'pass'],
      ['concurrent calls without cross-talk', 'pass'],
      [CRASH_ROW, 'fail'],
    ]);
    expect(report.results.at(-1)?.evidence).toMatch(
      /^the gateway process exited with code 3 during "large multibyte output \(8 x 64 Ki chars\)", \d+\.\d s into the check; its output ended with: crashing-gateway: listening on \d+ \| crashing-gateway: panic on multibyte_output: out of buffers\. The rows it was running ran again, and the rest ran, on a fresh gateway process$/,
    );
    expect(report.pass).toBe(false);
  }, 60_000);

  test('a gateway that dies again on the row run once more: both crashes are named, the row fails', async () => {
    const report = await runGatewayCheck({
      gateway: `node ${crashing} {upstream} {port} ${join(dir, 'unused')} multibyte_output always`,
      only: ['unicode', 'multibyte'],
      timeoutMs: 5000,
    });
    expect(report.results.map((r) => [r.property, r.verdict])).toEqual([
      ['unicode', 'pass'],
      ['large multibyte output (8 x 64 Ki chars)', 'fail'],
      [CRASH_ROW, 'fail'],
    ]);
    expect(report.results[1]?.evidence).toMatch(
      /^the gateway process exited with code 3 during this row, again on a fresh process: /,
    );
    const evidence = report.results.at(-1)?.evidence ?? '';
    expect(evidence.match(/the gateway process exited with code 3 during "large multibyte output/g)).toHaveLength(2);
    expect(report.results.at(-1)?.numbers.crashes).toBe(2);
  }, 60_000);
});
