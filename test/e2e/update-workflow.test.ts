import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createUserProject, type ProjectRun, runInProject } from '../support/run-in-project.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const vitestBin = join(root, 'node_modules/vitest/vitest.mjs');
let project: string;

const TEST_FILE = `
import 'mcp-golden/vitest';
import { recordCall } from 'mcp-golden';
import { startReferenceServer } from 'mcp-golden/server';
import { afterAll, beforeAll, expect, test } from 'vitest';

let server;
beforeAll(async () => { server = await startReferenceServer(); });
afterAll(async () => { await server.close(); });

test('long output stream', async () => {
  const stream = await recordCall(server.url, { tool: 'long_output', arguments: { blocks: Number(process.env.BLOCKS ?? 2), chars: 24 } });
  await expect(stream).toMatchGolden();
});
`;

function run(env: Record<string, string>, ...args: string[]): Promise<ProjectRun> {
  return runInProject(project, vitestBin, ['run', ...args], env, 60_000);
}

const golden = (): string => join(project, '__goldens__', 'golden', 'long-output-stream-1.jsonl');
const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

beforeAll(async () => {
  project = await createUserProject('workflow');
  await writeFile(join(project, 'vitest.config.mjs'), "export default { test: { include: ['*.test.mjs'] } };\n");
  await writeFile(join(project, 'golden.test.mjs'), TEST_FILE);
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

describe('the toMatchGolden update workflow, in a temporary project', { timeout: 90_000 }, () => {
  test('a missing golden fails in CI with the command to create it, and writes nothing', async () => {
    const { code, output } = await run({ CI: 'true' });
    expect(code).toBe(1);
    expect(output).toContain(
      '[mcp-golden] golden "__goldens__/golden/long-output-stream-1.jsonl" is missing, and goldens are not written in CI.',
    );
    expect(output).toContain('Run `npx vitest run golden.test.mjs -u` locally and commit');
    expect(await exists(golden())).toBe(false);
  });

  test('locally, a missing golden is written and the test passes; the next run compares', async () => {
    const first = await run({});
    expect(first.code).toBe(0);
    expect(first.output).toContain('[mcp-golden] wrote new golden __goldens__/golden/long-output-stream-1.jsonl');
    const text = await readFile(golden(), 'utf8');
    expect(text.split('\n')[0]).toContain('"format":"mcp-golden/1"');
    const second = await run({ CI: 'true' });
    expect(second.code).toBe(0);
    expect(await readFile(golden(), 'utf8')).toBe(text);
  });

  test('an intended change fails with a headline, the change set, a diff and the fix; the golden is kept', async () => {
    const before = await readFile(golden(), 'utf8');
    const { code, output } = await run({ BLOCKS: '3' });
    expect(code).toBe(1);
    expect(output).toMatch(
      /golden "__goldens__\/golden\/long-output-stream-1\.jsonl" does not match: frame \d+ of \d+ differs \(exchange 6, client->server, frame 2\)/,
    );
    expect(output).toContain('~ $.params.arguments.blocks: 2 → 3');
    expect(output).toContain('- Expected');
    expect(output).toContain('+ Received');
    expect(output).toContain(
      'Fix: if the change is intended, run `npx vitest run golden.test.mjs -u` to rewrite the golden',
    );
    expect(await readFile(golden(), 'utf8')).toBe(before);
  });

  test('-u rewrites the golden', async () => {
    const { code, output } = await run({ BLOCKS: '3' }, '-u');
    expect(code).toBe(0);
    expect(output).toContain('[mcp-golden] updated golden __goldens__/golden/long-output-stream-1.jsonl');
    expect(await readFile(golden(), 'utf8')).toContain('[block 2] abcdefghij');
    expect((await run({ BLOCKS: '3', CI: 'true' })).code).toBe(0);
  });

  test('an orphaned golden is reported, and -u removes it', async () => {
    const orphan = join(project, '__goldens__', 'golden', 'renamed-test.jsonl');
    await writeFile(orphan, await readFile(golden(), 'utf8'));
    const reported = await run({ BLOCKS: '3' });
    expect(reported.code).toBe(0);
    expect(reported.output).toContain(
      '[mcp-golden] obsolete golden __goldens__/golden/renamed-test.jsonl: no test in golden.test.mjs uses it.',
    );
    expect(await exists(orphan)).toBe(true);
    const removed = await run({ BLOCKS: '3' }, '-u');
    expect(removed.output).toContain('[mcp-golden] removed obsolete golden __goldens__/golden/renamed-test.jsonl');
    expect(await exists(orphan)).toBe(false);
  });
});
