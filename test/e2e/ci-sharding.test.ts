import { copyFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RecordTarget, recordCall, writeGolden } from '../../src/index.js';
import { runInProcess } from '../support/in-process-cli.js';
import { EVERYTHING } from '../support/server-everything.js';

// docs/ci-sharding.md's GitHub Actions recipe, run here: each matrix runner's `run:` line (in
// process, the runners at once as on CI, in a checkout of goldens recorded from server-everything),
// the artifacts uploaded and downloaded as the recipe's upload and download steps say, then the
// report job's merge-reports line; and the lint lines the guide gives under the recipe.

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

/** The recipe as docs/ci-sharding.md writes it: the matrix, the `npx mcp-golden` lines, the artifact steps, the lint lines. */
interface Recipe {
  readonly shards: number[];
  readonly verify: string;
  readonly merge: string;
  /** The verify job's upload step: the artifact's name and file, with `${{ matrix.shard }}` in them. */
  readonly upload: { readonly name: string; readonly path: string };
  /** The report job's download step: which artifacts, into which folder, merged into it or not. */
  readonly download: { readonly pattern: string; readonly path: string; readonly mergeMultiple: boolean };
  readonly lint: string;
  readonly lintMerge: string;
}

async function recipe(): Promise<Recipe> {
  const doc = await readFile(DOC, 'utf8');
  const yaml = /```yaml\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
  const shards = (/shard: \[([\d, ]+)\]/.exec(yaml)?.[1] ?? '').split(',').map(Number);
  const runs = [...yaml.matchAll(/^\s*- run: npx mcp-golden (.*)$/gm)].map((m) => m[1] as string);
  expect(runs).toHaveLength(2);
  const upload = /- uses: actions\/upload-artifact@v4\n(?:\s+if: .*\n)?\s+with:\n\s+name: (.*)\n\s+path: (.*)\n/.exec(
    yaml,
  );
  const download =
    /- uses: actions\/download-artifact@v4\n\s+with:\n\s+pattern: (.*)\n\s+path: (.*)\n\s+merge-multiple: (.*)\n/.exec(
      yaml,
    );
  const lint = /`npx mcp-golden (lint --shard [^`]*)`/.exec(doc)?.[1];
  const lintMerge = /then `(merge-reports reports\/lint-[^`]*)`/.exec(doc)?.[1];
  expect([upload, download, lint, lintMerge].every(Boolean), 'the recipe has its steps and lint lines').toBe(true);
  return {
    shards,
    verify: runs[0] as string,
    merge: runs[1] as string,
    upload: { name: upload?.[1] as string, path: upload?.[2] as string },
    download: {
      pattern: download?.[1] as string,
      path: download?.[2] as string,
      mergeMultiple: download?.[3] === 'true',
    },
    lint: lint as string,
    lintMerge: lintMerge as string,
  };
}

/** A glob of the recipe (`verify-*`) as a test of one name. */
const globOf = (pattern: string): RegExp => new RegExp(`^${pattern.replace(/[.]/g, '\\.').replace('*', '.*')}$`);

/** A command line split as a shell does for these lines: words, with '...' kept whole, `dir/x-*.json` expanded. */
async function words(line: string, cwd: string): Promise<string[]> {
  const out: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|(\S+)/g)) {
    const word = m[1] ?? (m[2] as string);
    if (m[1] === undefined && word.includes('*')) {
      const dir = dirname(word);
      const names = (await readdir(join(cwd, dir))).filter((name) => globOf(basename(word)).test(name)).sort();
      out.push(...names.map((name) => `${dir}/${name}`));
    } else out.push(word);
  }
  return out;
}

/**
 * One matrix runner per shard, at once: `line` (with `${{ matrix.shard }}` set) run in the
 * checkout, then its artifact uploaded as `upload` says; returns each runner's exit code and the
 * artifacts by name.
 */
async function runners(
  shards: readonly number[],
  line: string,
  upload: Recipe['upload'],
): Promise<{ codes: (number | null)[]; artifacts: Map<string, string> }> {
  const artifacts = new Map<string, string>();
  const codes = await Promise.all(
    shards.map(async (shard) => {
      const run = await runInProcess(await words(line.replaceAll(MATRIX_SHARD, String(shard)), checkout), {
        cwd: checkout,
      });
      expect([shard, run.stderr]).toEqual([shard, '']);
      artifacts.set(
        upload.name.replaceAll(MATRIX_SHARD, String(shard)),
        upload.path.replaceAll(MATRIX_SHARD, String(shard)),
      );
      return run.code;
    }),
  );
  return { codes, artifacts };
}

/** actions/download-artifact: the artifacts whose name matches, their files into one folder (merge-multiple). */
async function download(artifacts: Map<string, string>, step: Recipe['download'], pattern: string): Promise<void> {
  expect(step.mergeMultiple).toBe(true);
  await mkdir(join(checkout, step.path), { recursive: true });
  for (const [name, file] of artifacts) {
    if (globOf(pattern).test(name)) await copyFile(join(checkout, file), join(checkout, step.path, basename(file)));
  }
}

beforeAll(async () => {
  checkout = await mkdtemp(join(tmpdir(), 'mcp-golden-ci-recipe-'));
  // Recorded at once: each is a session of its own with a server process of its own.
  await Promise.all(
    SCENARIOS.map(async (scenario) =>
      writeGolden(join(checkout, 'goldens', `${scenario.name}.jsonl`), await recordCall(everything, scenario)),
    ),
  );
}, 120_000);

afterAll(async () => {
  await rm(checkout, { recursive: true, force: true });
});

describe('docs/ci-sharding.md: the GitHub Actions recipe, run locally', () => {
  test('each runner verifies its shard and uploads its report; the report job merges them into one JUnit case per golden, exit 0', async () => {
    const r = await recipe();
    expect(r.shards).toEqual([1, 2, 3]);
    expect(r.verify).toContain(`--shard ${MATRIX_SHARD}/${r.shards.length} `);
    expect(r.verify).toContain(SERVER_IN_DOC);
    const server = `'${process.execPath} ${EVERYTHING} stdio'`;
    const { codes, artifacts } = await runners(r.shards, r.verify.replace(SERVER_IN_DOC, server), r.upload);
    expect(codes).toEqual(r.shards.map(() => 0));
    const judged: string[] = [];
    for (const file of artifacts.values()) {
      judged.push(
        ...JSON.parse(await readFile(join(checkout, file), 'utf8')).goldens.map((g: { file: string }) => g.file),
      );
    }
    expect(judged.sort()).toEqual(SCENARIOS.map((s) => join(checkout, 'goldens', `${s.name}.jsonl`)).sort());
    await download(artifacts, r.download, r.download.pattern);
    const merged = await runInProcess(await words(r.merge, checkout), { cwd: checkout });
    expect([merged.code, merged.stderr]).toEqual([0, '']);
    expect(merged.stdout).toContain('PASS: 5 goldens, 5 passed, 0 failed');
    const xml = await readFile(join(checkout, 'verify.xml'), 'utf8');
    const cases = [...xml.matchAll(/<testcase name="([^"]*)"/g)].map((m) => m[1]);
    expect(cases).toEqual(SCENARIOS.map((s) => `goldens/${s.name}.jsonl`).sort());
    expect(await readFile(join(checkout, 'verify.html'), 'utf8')).toContain('goldens/sum-large.jsonl: pass');
    expect(JSON.parse(await readFile(join(checkout, 'verify.sarif'), 'utf8')).runs[0].results).toEqual([]);
  }, 180_000);

  test("the guide's lint lines: each runner lints its shard, the report job merges them into the report of one lint run", async () => {
    const r = await recipe();
    expect(r.lint).toContain(`--shard ${MATRIX_SHARD}/${r.shards.length} `);
    // The lint reports travel as the verify reports do: one artifact per runner, named after the file.
    const upload = { name: `lint-${MATRIX_SHARD}`, path: /--json (.*?\.json)/.exec(r.lint)?.[1] as string };
    const { codes, artifacts } = await runners(r.shards, r.lint, upload);
    expect(codes).toEqual(r.shards.map(() => 0));
    await download(artifacts, r.download, 'lint-*');
    const merged = await runInProcess(await words(r.lintMerge, checkout), { cwd: checkout });
    expect([merged.code, merged.stderr]).toEqual([0, '']);
    const whole = await runInProcess(['lint', '--junit', 'whole.xml', '--sarif', 'whole.sarif', 'goldens/'], {
      cwd: checkout,
    });
    expect(whole.code).toBe(0);
    expect(merged.stdout).toContain('[mcp-golden] lint: 5 goldens follow the progress contract');
    for (const [mergedFile, wholeFile] of [
      ['lint.xml', 'whole.xml'],
      ['lint.sarif', 'whole.sarif'],
    ] as const) {
      expect(await readFile(join(checkout, mergedFile), 'utf8')).toBe(
        await readFile(join(checkout, wholeFile), 'utf8'),
      );
    }
  }, 60_000);
});
