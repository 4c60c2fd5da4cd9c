import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { isGoldenError } from '../errors.js';
import { parseShard, pickShard, shardKey, shardOf } from './shard-goldens.js';

const cwd = '/work/project';
const goldens = Array.from({ length: 60 }, (_, i) => join(cwd, 'goldens', `call-${i}.jsonl`));

describe('parseShard', () => {
  test('reads i/n with 1 <= i <= n', () => {
    expect(parseShard('1/1')).toEqual({ index: 1, count: 1 });
    expect(parseShard('3/3')).toEqual({ index: 3, count: 3 });
    expect(parseShard(' 2/10 ')).toEqual({ index: 2, count: 10 });
  });

  test.each(['0/2', '3/2', 'x/y', '1/0', '2', '1/2/3', '-1/2', '1.5/2', ''])('refuses %j as a usage error', (text) => {
    let thrown: unknown;
    try {
      parseShard(text);
    } catch (error) {
      thrown = error;
    }
    expect(isGoldenError(thrown) && thrown.code).toBe('E_USAGE');
    expect((thrown as Error).message).toBe(
      `Invalid --shard "${text}": expected i/n with 1 <= i <= n, the part this runner takes of n parts (e.g. --shard 2/3 on the second of three CI runners).`,
    );
  });
});

describe('pickShard', () => {
  test('1/1 takes every golden in the order given, at positions 1..n', () => {
    expect(pickShard(goldens, { index: 1, count: 1 }, cwd)).toEqual({
      files: goldens,
      positions: goldens.map((_, i) => i + 1),
      given: goldens.length,
    });
  });

  test.each([2, 3, 5])(
    'the %i shards are disjoint, cover every golden, keep the order and are each non-empty',
    (count) => {
      const picks = Array.from({ length: count }, (_, i) => pickShard(goldens, { index: i + 1, count }, cwd));
      const positions = picks.flatMap((p) => p.positions).sort((a, b) => a - b);
      expect(positions).toEqual(goldens.map((_, i) => i + 1));
      for (const pick of picks) {
        expect(pick.files.length).toBeGreaterThan(0);
        expect(pick.files).toEqual(pick.positions.map((p) => goldens[p - 1]));
        expect(pick.given).toBe(goldens.length);
      }
    },
  );

  test('adding or removing goldens moves no other golden between shards', () => {
    const before = new Map(goldens.map((g) => [g, shardOf(shardKey(g, cwd), 4)]));
    const grown = [join(cwd, 'goldens', 'aaa-new.jsonl'), ...goldens.slice(10), join(cwd, 'goldens', 'zzz.jsonl')];
    for (let index = 1; index <= 4; index++) {
      for (const file of pickShard(grown, { index, count: 4 }, cwd).files) {
        if (before.has(file)) expect(before.get(file)).toBe(index);
      }
    }
  });

  test("a golden's shard follows its path relative to the working directory, wherever the checkout is", () => {
    const elsewhere = '/home/runner/work/other/checkout';
    const moved = goldens.map((file) => join(elsewhere, file.slice(cwd.length)));
    for (let index = 1; index <= 7; index++) {
      const here = pickShard(goldens, { index, count: 7 }, cwd).positions;
      expect(pickShard(moved, { index, count: 7 }, elsewhere).positions).toEqual(here);
    }
    expect(shardKey(join(cwd, 'goldens', 'sub', 'a.jsonl'), cwd)).toBe('goldens/sub/a.jsonl');
  });

  test('the hash is stable across versions: these paths keep these shards', () => {
    // A change of hash would move a user's goldens between runners (and split a merge): pinned here.
    const keys = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => `goldens/${name}.jsonl`);
    expect(keys.map((key) => shardOf(key, 3))).toEqual([2, 3, 1, 2, 1, 3]);
  });
});
