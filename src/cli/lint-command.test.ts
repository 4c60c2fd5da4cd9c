import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../../test/support/cli.js';

const GOLDENS = fileURLToPath(new URL('../../goldens/', import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-lint-cli-'));
  await mkdir(join(dir, 'goldens/nested'), { recursive: true });
  await copyFile(join(GOLDENS, 'chatty.jsonl'), join(dir, 'goldens/chatty.jsonl'));
  await copyFile(join(GOLDENS, 'progress-small.jsonl'), join(dir, 'goldens/nested/progress-small.jsonl'));
  await mkdir(join(dir, 'empty'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('mcp-golden lint', () => {
  test('takes a directory: every *.jsonl under it, in name order', async () => {
    const result = await runCli(['lint', 'goldens/'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const verdicts = result.stdout.split('\n').filter((l) => / \(\d+ requests?\)$/.test(l));
    expect(verdicts.map((l) => l.replace(/ \(\d+ requests?\)$/, ''))).toEqual([
      'goldens/chatty.jsonl: ok',
      'goldens/nested/progress-small.jsonl: ok',
    ]);
    expect(result.stdout).toContain('[mcp-golden] lint: 2 goldens follow the progress contract');
  });

  test('a directory with no goldens is a usage error naming it', async () => {
    const result = await runCli(['lint', 'empty'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^\[mcp-golden\] No goldens found in "empty": expected \*\.jsonl files\./);
  });
});
