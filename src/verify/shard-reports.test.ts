import { describe, expect, test } from 'vitest';
import { isGoldenError } from '../errors.js';
import { checkShardSet, type NamedReport } from './shard-reports.js';

const FORMATS = { verify: 'mcp-golden-verify/1', lint: 'mcp-golden-lint/1' };

/** A report of shard `index`/`count` over `given` goldens, listing the goldens at `positions`. */
const report = (name: string, index: number, count: number, positions: number[], extra: object = {}): NamedReport => ({
  name,
  data: {
    format: 'mcp-golden-verify/1',
    command: 'verify',
    shard: { index, count, given: 5 },
    goldens: positions.map((position) => ({ file: `/ci/goldens/g${position}.jsonl`, position })),
    ...extra,
  },
});

const THREE = [report('s1.json', 1, 3, [2, 5]), report('s2.json', 2, 3, [1]), report('s3.json', 3, 3, [3, 4])];

function usageError(reports: NamedReport[]): string {
  try {
    checkShardSet(reports, FORMATS);
  } catch (error) {
    if (isGoldenError(error) && error.code === 'E_USAGE') return error.message;
    throw error;
  }
  throw new Error('expected a usage error');
}

describe('checkShardSet', () => {
  test('takes every shard once, in any order, and gives them in shard order', () => {
    const set = checkShardSet([THREE[2], THREE[0], THREE[1]] as NamedReport[], FORMATS);
    expect(set.command).toBe('verify');
    expect(set.reports.map((r) => r.name)).toEqual(['s1.json', 's2.json', 's3.json']);
  });

  test('a missing shard is named, with the shards given', () => {
    expect(usageError([THREE[0], THREE[2]] as NamedReport[])).toBe(
      'Missing shard 2/3: the reports given are shard 1/3 ("s1.json"), shard 3/3 ("s3.json"). Add the report of shard 2/3 (a runner that failed to upload it must run again).',
    );
  });

  test('a shard given twice names both files', () => {
    expect(usageError([...THREE, report('again.json', 2, 3, [1])])).toBe(
      'Reports "s2.json" and "again.json" are both shard 2/3: give each shard\'s report once.',
    );
  });

  test('mixing commands names the file', () => {
    const lint = report('lint-2.json', 2, 3, [1], { command: 'lint', format: 'mcp-golden-lint/1' });
    expect(usageError([THREE[0] as NamedReport, lint, THREE[2] as NamedReport])).toBe(
      'Report "lint-2.json" is a lint report, but "s1.json" is a verify report: merge the reports of one command at a time.',
    );
  });

  test('another format version names the file and the format expected', () => {
    const newer = report('s2.json', 2, 3, [1], { format: 'mcp-golden-verify/2' });
    expect(usageError([THREE[0] as NamedReport, newer, THREE[2] as NamedReport])).toBe(
      'Report "s2.json" has format "mcp-golden-verify/2": expected "mcp-golden-verify/1", which this mcp-golden merges. Write every shard\'s report with the same mcp-golden version as merge-reports.',
    );
  });

  test('a file that is no sharded report (an old report, a JUnit file read as JSON, another split) is named', () => {
    expect(usageError([{ name: 'old.json', data: { format: 'mcp-golden-verify/1', pass: true } }])).toMatch(
      /^Report "old\.json" is not a --json report of mcp-golden verify or mcp-golden lint: expected "command": "verify" or "lint", got none\./,
    );
    expect(usageError([{ name: 'list.json', data: [] }])).toContain('got no JSON object');
    expect(usageError([report('bad.json', 4, 3, [])])).toMatch(/^Report "bad\.json" has no valid "shard"/);
    expect(usageError([report('nameless.json', 1, 1, [], { goldens: [{ position: 1 }] })])).toMatch(
      /^Report "nameless\.json" does not list its goldens with their path and "position"/,
    );
    expect(usageError([THREE[0] as NamedReport, report('s2-of-2.json', 2, 2, [1])])).toBe(
      'Report "s2-of-2.json" is shard 2/2, but "s1.json" is shard 1/3: every report must come from the same split (--shard i/3).',
    );
  });

  test('shards that did not split the same goldens are refused', () => {
    expect(usageError([THREE[0], report('s2.json', 2, 3, [2]), THREE[2]] as NamedReport[])).toBe(
      'Report "s2.json" lists the golden at position 2, as "s1.json" does: the shards did not split the same goldens. Run every shard on the same commit with the same golden paths.',
    );
    expect(usageError([THREE[0], report('s2.json', 2, 3, []), THREE[2]] as NamedReport[])).toBe(
      "The reports list 4 goldens, but the run was given 5: a shard's report is incomplete. Run the shards again and merge the reports they write.",
    );
  });
});
