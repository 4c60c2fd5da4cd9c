import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runInProcess as runCli } from '../../test/support/in-process-cli.js';

const goldens = fileURLToPath(new URL('../../goldens', import.meta.url));
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-cli-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('mcp-golden record', () => {
  test('records the named scenarios into --out', async () => {
    const result = await runCli(['record', 'chatty', 'progress-token-zero', '--out', dir]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`[mcp-golden] recorded ${join(dir, 'chatty.jsonl')}`);
    expect(result.stderr).toContain('2 goldens written');
    const text = await readFile(join(dir, 'progress-token-zero.jsonl'), 'utf8');
    expect(text.split('\n')[0]).toContain('"scenario":"progress-token-zero"');
    expect(text).toContain('\\"progressToken\\":0,');
  });

  test('--concurrency 3 records side by side: the long call, started first, is written last', async () => {
    const names = ['progress-10x100', 'chatty', 'progress-token-zero', 'long_output-small'];
    const result = await runCli(['record', ...names, '--concurrency', '3', '--out', dir]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('4 goldens written');
    // The long call finishes last, so the order of the lines is the order of completion.
    const lines = result.stderr.split('\n').filter((l) => l.startsWith('[mcp-golden] recorded '));
    expect(lines.at(-1)).toContain('progress-10x100.jsonl');
    for (const name of names)
      expect(await readFile(join(dir, `${name}.jsonl`), 'utf8')).toContain(`"scenario":"${name}"`);
  });

  test.each(['0', '65', 'two'])('--concurrency %s is a usage error', async (n) => {
    const result = await runCli(['record', 'chatty', '--concurrency', n, '--out', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Invalid --concurrency "${n}": expected a whole number from 1 to 64`);
  });

  test('lists the scenarios', async () => {
    const result = await runCli(['record', '--list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^progress-default\s+progress with default arguments/m);
    expect(result.stdout).toMatch(/^long_output-50x65536\s+maximal long_output/m);
  });

  test('refuses an unknown scenario with the list of known ones: a usage error', async () => {
    const result = await runCli(['record', 'progres', '--out', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '[mcp-golden] Unknown scenario "progres". Did you mean progress-default? Known scenarios: progress-default,',
    );
  });

  test('refuses a broken scenario file, naming it and the field: a usage error, as lint exits for a broken golden', async () => {
    const file = join(dir, 'scenarios.json');
    await writeFile(file, JSON.stringify([{ name: 'x', tool: 'progress', cancelAfter: 2 }]));
    const result = await runCli(['record', '--scenarios', file, '--out', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `Invalid scenario #1 in ${file}: "cancelAfter" and "dropAfter" count progress notifications`,
    );
    await writeFile(file, 'nope\n');
    const unreadable = await runCli(['record', '--stdio', 'node server.js', '--scenarios', file, '--out', dir]);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain(`[mcp-golden] Cannot read scenario list "${file}":`);
    expect(await readdir(dir)).toEqual(['scenarios.json']);
  });
});

describe('mcp-golden inspect', () => {
  test('prints a timeline with every progress notification and the gap figures', async () => {
    const result = await runCli(['inspect', join(goldens, 'progress-10x100.jsonl')]);
    expect(result.code).toBe(0);
    expect(result.stdout.match(/<- progress \d+\/10 token="golden-progress-1"/g)).toHaveLength(10);
    expect(result.stdout).toMatch(/tools\/call progress \{"steps":10,"step_ms":100\} id=1 token="golden-progress-1"/);
    expect(result.stdout).toMatch(
      /10 progress notifications; progress gaps min \d+\.\d \/ median \d+\.\d \/ max \d+\.\d ms/,
    );
  });

  test('reports a corrupt golden with its line and exits 1', async () => {
    const file = join(dir, 'broken.jsonl');
    const good = await readFile(join(goldens, 'chatty.jsonl'), 'utf8');
    const lines = good.split('\n');
    lines[4] = '{not json';
    await writeFile(file, lines.join('\n'));
    const result = await runCli(['inspect', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Failed to read golden "${file}": line 5 is not valid JSON`);
  });

  test('needs a path', async () => {
    const result = await runCli(['inspect']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Missing golden path');
  });
});
