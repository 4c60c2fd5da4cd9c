import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { MemoryGoldenStore } from '../../test/support/memory-golden-store.js';
import { claimGolden } from './golden-claims.js';
import { reportObsoleteGoldens, type TaskLike, testOutcomes } from './obsolete-goldens.js';

const root = '/project';
const file = `${root}/test/a.test.ts`;
const dir = `${root}/test/__goldens__/a`;
let store: MemoryGoldenStore;
let said: string[];

beforeEach(() => {
  store = new MemoryGoldenStore();
  for (const name of ['passes-1', 'passes-2', 'fails-1', 'skipped-1', 'renamed-1'])
    store.files.set(`${dir}/${name}.jsonl`, 'x');
  store.files.set(`${root}/test/a.test.ts`, 'test file');
  said = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((line) => {
    said.push(String(line).trim());
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const test_ = (name: string, state: string, mode = 'run'): TaskLike => ({
  type: 'test',
  name,
  mode,
  result: { state },
});
const fileTask = (...tasks: TaskLike[]): TaskLike => ({ type: 'suite', name: 'test/a.test.ts', filepath: file, tasks });

describe('obsolete goldens', () => {
  test('test names are full names (suite > test), as vitest names them', () => {
    const tree = fileTask({ type: 'suite', name: 'outer', tasks: [test_('inner', 'pass')] }, test_('top', 'fail'));
    expect(testOutcomes(tree)).toEqual([
      { name: 'outer > inner', passed: true },
      { name: 'top', passed: false },
    ]);
  });

  test('when every test passed, unused goldens are removed by -u and only reported otherwise', async () => {
    claimGolden(file, 'passes', `${dir}/passes-1.jsonl`, 'a.test.ts:3:1');
    const tree = fileTask(test_('passes', 'pass'));
    const reported = await reportObsoleteGoldens(tree, 'new', store, root);
    expect(reported.map((n) => [n.path.slice(dir.length + 1), n.removed])).toEqual([
      ['fails-1.jsonl', false],
      ['passes-2.jsonl', false],
      ['renamed-1.jsonl', false],
      ['skipped-1.jsonl', false],
    ]);
    expect(said).toContain(
      '[mcp-golden] obsolete golden test/__goldens__/a/passes-2.jsonl: no test in test/a.test.ts uses it. Delete it, or run with -u to remove it.',
    );
    await reportObsoleteGoldens(tree, 'all', store, root);
    expect(store.under(dir)).toEqual([`${dir}/passes-1.jsonl`]);
  });

  test('-u keeps the goldens of failed and skipped tests, and unknown ones while a test fails', async () => {
    const tree = fileTask(test_('passes', 'pass'), test_('fails', 'fail'), test_('skipped', 'skip', 'skip'));
    claimGolden(file, 'passes', `${dir}/passes-1.jsonl`, 'a.test.ts:3:1');
    await reportObsoleteGoldens(tree, 'all', store, root);
    expect(store.under(dir)).toEqual([
      `${dir}/fails-1.jsonl`,
      `${dir}/passes-1.jsonl`,
      `${dir}/renamed-1.jsonl`,
      `${dir}/skipped-1.jsonl`,
    ]);
    expect(said).toContain('[mcp-golden] removed obsolete golden test/__goldens__/a/passes-2.jsonl');
    expect(said).toContain(
      '[mcp-golden] obsolete golden test/__goldens__/a/renamed-1.jsonl: no test in test/a.test.ts uses it. Delete it, or run with -u to remove it (kept by -u while tests of test/a.test.ts fail or are skipped).',
    );
  });

  test('in CI (update mode none) nothing is removed', async () => {
    const before = new Map(store.files);
    await reportObsoleteGoldens(fileTask(test_('other', 'pass')), 'none', store, root);
    expect(store.files).toEqual(before);
    expect(said.length).toBeGreaterThan(0);
  });

  test('a temporary file of an interrupted write is reported, and removed by -u', async () => {
    const leftover = `${dir}/.passes-1.jsonl.999999999.0123abcd.tmp`;
    store.files.set(leftover, 'half');
    const tree = fileTask(test_('passes', 'pass'), test_('fails', 'fail'));
    const reported = await reportObsoleteGoldens(tree, 'new', store, root);
    expect(reported.filter((n) => n.kind === 'interrupted').map((n) => n.path)).toEqual([leftover]);
    expect(said).toContain(
      '[mcp-golden] interrupted write: test/__goldens__/a/.passes-1.jsonl.999999999.0123abcd.tmp was left by process 999999999, which stopped while writing test/__goldens__/a/passes-1.jsonl; that golden is unchanged (writes are atomic). Delete it, or run with -u to remove it.',
    );
    await reportObsoleteGoldens(tree, 'all', store, root);
    expect(store.files.has(leftover)).toBe(false);
  });

  test('goldens of a deleted test file are reported by one remaining file, and removed by -u', async () => {
    store.files.set(`${root}/test/__goldens__/gone/old-1.jsonl`, 'x');
    store.files.set(`${root}/test/b.test.ts`, 'another test file');
    store.files.set(`${root}/test/__goldens__/b/t-1.jsonl`, 'x');
    const fromB = await reportObsoleteGoldens(
      { ...fileTask(), filepath: `${root}/test/b.test.ts` },
      'all',
      store,
      root,
    );
    expect(fromB.filter((n) => n.kind === 'orphaned-file')).toEqual([]);
    const fromA = await reportObsoleteGoldens(fileTask(), 'new', store, root);
    expect(fromA.filter((n) => n.kind === 'orphaned-file').map((n) => n.path)).toEqual([
      `${root}/test/__goldens__/gone/old-1.jsonl`,
    ]);
    expect(said).toContain(
      '[mcp-golden] obsolete golden test/__goldens__/gone/old-1.jsonl: no test file gone.test.* exists beside test/a.test.ts. Delete it, or run with -u to remove it.',
    );
    await reportObsoleteGoldens(fileTask(), 'all', store, root);
    expect(store.files.has(`${root}/test/__goldens__/gone/old-1.jsonl`)).toBe(false);
  });
});
