import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { mergeVerifyReports } from './merge-verify-reports.js';
import type { SchemaChange } from './schema-drift.js';
import { pickShard } from './shard-goldens.js';
import type { GoldenVerdict } from './verify-goldens.js';
import { buildVerifyReport, type VerifyReport } from './verify-report.js';

const cwd = '/ci/checkout';
const change = (item: string, what: string, cls: 'breaking' | 'compatible' = 'compatible'): SchemaChange => ({
  list: 'tools',
  item,
  change: what,
  class: cls,
});
const NEW_TOOL = change('summary', 'new tool');
const NEW_ARG = { ...change('report', 'new optional argument'), argument: 'format' };
const REMOVED = change('legacy', 'tool removed', 'breaking');

/** Twelve verdicts: some fail, some see schema changes in differing orders, one could not run. */
const verdicts: GoldenVerdict[] = Array.from({ length: 12 }, (_, i) => {
  const schemaChanges =
    i % 4 === 1 ? [NEW_ARG, NEW_TOOL] : i % 4 === 2 ? [NEW_TOOL] : i === 7 ? [REMOVED, NEW_ARG] : [];
  return {
    file: join(cwd, 'goldens', `g${String(i).padStart(2, '0')}.jsonl`),
    pass: i % 3 !== 0,
    differs: i % 3 === 0 || schemaChanges.length > 0,
    ms: 10 + i,
    differences:
      i % 3 === 0 ? [{ where: 'tools/call result', path: '$.x', kind: 'changed', expected: 1, actual: 2 }] : [],
    schemaChanges,
    volatile: { mask: ['uuid'] },
    rewritten: false,
    ...(i === 9 && { error: 'the server exited before answering initialize' }),
  };
});

const RUN = { failOn: 'any', update: false, ms: 100 } as const;

/** The reports `verify --shard k/count` would write for these verdicts, run in `at`. */
function shardReports(count: number, at = cwd): { name: string; report: VerifyReport }[] {
  const files = verdicts.map((v) => v.file);
  return Array.from({ length: count }, (_, k) => {
    const pick = pickShard(files, { index: k + 1, count }, cwd);
    const picked = pick.positions.map((p) => verdicts[p - 1] as GoldenVerdict);
    const moved = picked.map((v) => ({ ...v, file: join(at, v.file.slice(cwd.length)) }));
    const shard = { index: k + 1, count, given: pick.given };
    const report = buildVerifyReport(moved, { ...RUN, ms: 40, cwd: at, shard, positions: pick.positions });
    return { name: `verify-${k + 1}.json`, report };
  });
}

const withoutTimes = (report: VerifyReport) => ({
  ...report,
  summary: { ...report.summary, ms: 0 },
  goldens: report.goldens.map((g) => ({ ...g, ms: 0 })),
});

describe('mergeVerifyReports', () => {
  const whole = buildVerifyReport(verdicts, { ...RUN, cwd });

  test.each([1, 2, 3, 5])('the %i shards merge into the unsharded report, apart from times', (count) => {
    const merged = mergeVerifyReports(shardReports(count), cwd);
    expect(withoutTimes(merged)).toEqual(withoutTimes(whole));
    expect(merged.schemaChanges.map((c) => c.item)).toEqual(['report', 'summary', 'legacy']);
    expect(merged.summary.ms).toBe(40 * count);
  });

  test('each tool-schema change is listed once, with every golden that saw it in the order given', () => {
    const merged = mergeVerifyReports(shardReports(3), cwd);
    const summary = merged.schemaChanges.find((c) => c.item === 'summary');
    expect(summary?.goldens.map((f) => f.slice(-9))).toEqual(
      ['g01', 'g02', 'g05', 'g06', 'g09', 'g10'].map((n) => `${n}.jsonl`),
    );
  });

  test("reports written in another checkout are read relative to their working directory and written relative to the merge's", () => {
    const merged = mergeVerifyReports(shardReports(3, '/home/runner/work/x/x'), cwd);
    expect(withoutTimes(merged)).toEqual(withoutTimes(whole));
  });

  test('shards run with different options are a usage error naming the file', () => {
    const reports = shardReports(2);
    const second = reports[1] as { name: string; report: VerifyReport };
    const mixed = [
      reports[0] as (typeof reports)[number],
      { ...second, report: { ...second.report, failOn: 'breaking' as const } },
    ];
    expect(() => mergeVerifyReports(mixed, cwd)).toThrow(
      'Report "verify-2.json" was verified with failOn "breaking", but "verify-1.json" with "any": run every shard with the same options.',
    );
  });
});
