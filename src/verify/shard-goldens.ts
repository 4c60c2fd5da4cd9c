import { createHash } from 'node:crypto';
import { relative, sep } from 'node:path';
import { GoldenError } from '../errors.js';

/** One part of a run split across CI runners: part `index` (1-based) of `count`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** Every golden in one part: `1/1`, the default. */
export const WHOLE_RUN: Shard = { index: 1, count: 1 };

/**
 * `--shard i/n` read: 1 <= i <= n. Anything else (`0/2`, `3/2`, `x/y`) is a usage error naming
 * what was given and what is expected.
 */
export function parseShard(text: string, flag = '--shard'): Shard {
  const match = /^(\d{1,6})\/(\d{1,6})$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) {
    throw new GoldenError(
      'E_USAGE',
      `Invalid ${flag} "${text}": expected i/n with 1 <= i <= n, the part this runner takes of n parts (e.g. ${flag} 2/3 on the second of three CI runners).`,
    );
  }
  return { index, count };
}

/** `path` as the shard choice reads it: relative to `cwd`, `/`-separated, so every runner's checkout agrees. */
export function shardKey(path: string, cwd: string): string {
  return (relative(cwd, path) || path).split(sep).join('/');
}

/**
 * The shard (1-based) a golden falls in among `count`: a stable hash of its key alone, so adding
 * or removing a golden moves no other golden between shards.
 */
export function shardOf(key: string, count: number): number {
  return (createHash('sha256').update(key, 'utf8').digest().readUInt32BE(0) % count) + 1;
}

/** The goldens of one shard, in the order given, each with its place (1-based) among all the goldens given. */
export interface ShardPick {
  readonly files: readonly string[];
  readonly positions: readonly number[];
  /** How many goldens were given to the whole run (every shard). */
  readonly given: number;
}

/** Picks the goldens of `shard` out of `files` (paths as found from `cwd`), keeping their order. */
export function pickShard(files: readonly string[], shard: Shard, cwd: string): ShardPick {
  const picked: string[] = [];
  const positions: number[] = [];
  files.forEach((file, i) => {
    if (shard.count === 1 || shardOf(shardKey(file, cwd), shard.count) === shard.index) {
      picked.push(file);
      positions.push(i + 1);
    }
  });
  return { files: picked, positions, given: files.length };
}

/** The line a command prints when its shard holds no golden (the run passes). */
export function emptyShardLine(command: string, shard: Shard, given: number): string {
  return `[mcp-golden] ${command}: shard ${shard.index}/${shard.count} holds none of the ${given} golden${given === 1 ? '' : 's'} given; nothing to ${command}, so it passes.`;
}

/** The line a command prints first when it runs one shard of several: which goldens of how many it takes. */
export function shardLine(command: string, shard: Shard, pick: ShardPick): string {
  return `[mcp-golden] ${command}: shard ${shard.index}/${shard.count}: ${pick.files.length} of the ${pick.given} goldens given`;
}
