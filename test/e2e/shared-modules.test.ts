import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createUserProject, type ProjectRun, runInProject } from '../support/run-in-project.js';

// vitest with `isolate: false` runs several test files in one worker on one module graph: a module
// imported by each file is evaluated once, so hooks it registers at its top level run for the first
// file only. Two test files, one worker, with each way of registering mcp-golden/vitest.

const root = fileURLToPath(new URL('../..', import.meta.url));
const vitestBin = join(root, 'node_modules/vitest/vitest.mjs');
let project: string;

const testFile = (imported: boolean): string => `
${imported ? "import 'mcp-golden/vitest';" : ''}
import { readGolden } from 'mcp-golden';
import { expect, test } from 'vitest';

const golden = await readGolden(${JSON.stringify(join(root, 'goldens/chatty.jsonl'))});
test('chatty', async () => {
  await expect(golden).toMatchGolden();
});
`;

async function runWith(registration: 'import' | 'setupFiles'): Promise<ProjectRun> {
  const setup = registration === 'setupFiles' ? "setupFiles: ['mcp-golden/vitest'], " : '';
  await writeFile(
    join(project, 'vitest.config.mjs'),
    `export default { test: { include: ['*.test.mjs'], ${setup}isolate: false, maxWorkers: 1, fileParallelism: false } };\n`,
  );
  for (const name of ['first', 'second']) {
    await writeFile(join(project, `${name}.test.mjs`), testFile(registration === 'import'));
    // A golden no test uses, next to each file's own.
    await mkdir(join(project, '__goldens__', name), { recursive: true });
    await writeFile(join(project, '__goldens__', name, 'gone-1.jsonl'), '');
  }
  return runInProject(project, vitestBin, ['run'], {}, 60_000);
}

beforeAll(async () => {
  project = await createUserProject('shared-modules');
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

describe('mcp-golden/vitest in a worker that shares modules between test files (isolate: false)', {
  timeout: 90_000,
}, () => {
  test('imported by each file: the second file is told its hooks do not run, and how to register', async () => {
    const run = await runWith('import');
    expect(run.code).toBe(0);
    const warnings = run.output.match(/mcp-golden\/vitest was loaded by another test file in this worker/g) ?? [];
    expect(warnings).toHaveLength(1);
    expect(run.output).toMatch(/\[mcp-golden\] (first|second)\.test\.mjs: mcp-golden\/vitest was loaded by another/);
    expect(run.output).toContain("Add 'mcp-golden/vitest' to test.setupFiles in your vitest config");
  });

  test('through setupFiles: every file has its hooks, so both files report their obsolete golden', async () => {
    const run = await runWith('setupFiles');
    expect(run.code).toBe(0);
    expect(run.output).not.toContain('was loaded by another test file');
    expect(run.output).toContain('obsolete golden __goldens__/first/gone-1.jsonl');
    expect(run.output).toContain('obsolete golden __goldens__/second/gone-1.jsonl');
  });
});
