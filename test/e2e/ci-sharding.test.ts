import { copyFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RecordTarget, recordCall, writeGolden } from '../../src/index.js';
import { runInProcess } from '../support/in-process-cli.js';
import { EVERYTHING } from '../support/server-everything.js';

// docs/ci-sharding.md's GitHub Actions recipe, run here: each matrix runner's `run:` line in turn
// (in process, in a checkout of goldens recorded from server-everything), the artifacts "uploaded"
// and "downloaded" as the recipe does, then the report job's merge-reports line.

const DOC = fileURLToPath(new URL('../../docs/ci-sharding.md', import.meta.url));
const SERVER_IN_DOC = "'node dist/server.js'";
// biome-ignore lint/suspicious/noTemplateCurlyInString: the workflow's matrix expression, not a template
const MATRIX_SHARD = '${{ matrix.shard }}';
const everything: RecordTarget = { command: process.execPath, args: [EVERYTHING, 'stdio'], label: 'server-everything' };
const SCENARIOS = [
  { name: 'echo-hello', tool: 'echo', arguments: { message: 'hello' } },
  { name: 'echo-cafe', tool: 'echo', arguments: { message: 'café ☕' } },
  { name: 'echo-emoji', tool: 'echo', arguments: { message: '🦊🦊' } },
  { name: 'sum-small', tool: 'get-sum', arguments: { a: 2, b: 40 } },
  { name: 'sum-large', tool: 'get-sum', arguments: { a: 2 ** 40, b: 1 } },
];

let checkout: string;

/** The recipe's matrix and its `npx mcp-golden` lines, as docs/ci-sharding.md writes them. */
async function recipe(): Promise<{ shards: number[]; verify: string; merge: string }> {
  const yaml = /```yaml\n([\s\S]*?)```/.exec(await readFile(DOC, 'utf8'))?.[1] ?? '';
  const shards = (/shard: \[([\d, ]+)\]/.exec(yaml)?.[1] ?? '').split(',').map(Number);
  const runs = [...yaml.matchAll(/^\s*- run: npx mcp-golden (.*)$/gm)].map((m) => m[1] as string);
  const [verify, merge] = runs;
  expect(runs).toHaveLength(2);
  return { shards, verify: verify as string, merge: merge as string };
}

/** A command line split as a shell does for these lines: words, with '...' kept whole, `dir/x-*.json` expanded. */
async function words(line: string, cwd: string): Promise<string[]> {
  const out: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|(\S+)/g)) {
    const word = m[1] ?? (m[2] as string);
    if (m[1] === undefined && word.includes('*')) {
      const pattern = new RegExp(`^${word.split('/').pop()?.replace(/[.]/g, '\\.').replace('*', '.*')}$`);
      const dir = dirname(word);
      const names = (await readdir(join(cwd, dir))).filter((name) => pattern.test(name)).sort();
      out.push(...names.map((name) => `${dir}/${name}`));
    } else out.push(word);
  }
  return out;
}

beforeAll(async () => {
  checkout = await mkdtemp(join(tmpdir(), 'mcp-golden-ci-recipe-'));
  for (const scenario of SCENARIOS) {
    await writeGolden(join(checkout, 'goldens', `${scenario.name}.jsonl`), await recordCall(everything, scenario));
  }
});

afterAll(async () => {
  await rm(checkout, { recursive: true, force: true });
});

describe('docs/ci-sharding.md: the GitHub Actions recipe, run locally', () => {
  test('each runner verifies its shard and uploads its report; the report job merges them into one JUnit case per golden, exit 0', async () => {
    const { shards, verify, merge } = await recipe();
    expect(shards).toEqual([1, 2, 3]);
    expect(verify).toContain(`--shard ${MATRIX_SHARD}/${shards.length} `);
    expect(verify).toContain(SERVER_IN_DOC);
    const server = `'${process.execPath} ${EVERYTHING} stdio'`;
    await mkdir(join(checkout, 'reports'));
    const judged: string[] = [];
    for (const shard of shards) {
      const line = verify.replaceAll(MATRIX_SHARD, String(shard)).replace(SERVER_IN_DOC, server);
      const run = await runInProcess(await words(line, checkout), { cwd: checkout });
      expect([shard, run.code, run.stderr]).toEqual([shard, 0, '']);
      const report = JSON.parse(await readFile(join(checkout, `verify-${shard}.json`), 'utf8'));
      judged.push(...report.goldens.map((g: { file: string }) => g.file));
      // actions/upload-artifact, then download-artifact with merge-multiple into reports/.
      await copyFile(join(checkout, `verify-${shard}.json`), join(checkout, 'reports', `verify-${shard}.json`));
    }
    expect(judged.sort()).toEqual(SCENARIOS.map((s) => join(checkout, 'goldens', `${s.name}.jsonl`)).sort());
    const merged = await runInProcess(await words(merge, checkout), { cwd: checkout });
    expect([merged.code, merged.stderr]).toEqual([0, '']);
    expect(merged.stdout).toContain('PASS: 5 goldens, 5 passed, 0 failed');
    const xml = await readFile(join(checkout, 'verify.xml'), 'utf8');
    const cases = [...xml.matchAll(/<testcase name="([^"]*)"/g)].map((m) => m[1]);
    expect(cases).toEqual(SCENARIOS.map((s) => `goldens/${s.name}.jsonl`).sort());
    expect(await readFile(join(checkout, 'verify.html'), 'utf8')).toContain('goldens/sum-large.jsonl: pass');
    expect(JSON.parse(await readFile(join(checkout, 'verify.sarif'), 'utf8')).runs[0].results).toEqual([]);
  }, 180_000);
});
