import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runInProcess } from '../../support/in-process-cli.js';

const GOLDEN = fileURLToPath(new URL('../../../goldens/progress-small.jsonl', import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-inspect-html-'));
  // The server echoes another token than the request's: a token-echo violation, which this project turns off.
  const text = await readFile(GOLDEN, 'utf8');
  const wrong = text.replace(
    '\\"progressToken\\":\\"golden-progress-small\\",\\"progress\\"',
    '\\"progressToken\\":\\"another-token\\",\\"progress\\"',
  );
  expect(wrong).not.toBe(text);
  await writeFile(join(dir, 'wrong-token.jsonl'), wrong);
  await writeFile(join(dir, 'package.json'), '{"mcp-golden":{"lint":{"rules":{"token-echo":false}}}}\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test("inspect --html marks calls by the project's lint configuration, as mcp-golden lint judges them", async () => {
  const lint = await runInProcess(['lint', 'wrong-token.jsonl'], { cwd: dir });
  expect(lint.code).toBe(0);
  const inspect = await runInProcess(['inspect', '--html', 'page.html', 'wrong-token.jsonl'], { cwd: dir });
  expect(inspect.code).toBe(0);
  const page = await readFile(join(dir, 'page.html'), 'utf8');
  expect(page).toContain('tools/call progress');
  expect(page).not.toContain('FAIL');
  expect(page).not.toContain('token-echo');
});
