import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { globSync, globToRegExp } from '../../../scripts/conformance/glob.mjs';

// The Node 20 stand-in for `fs.globSync` the conformance suite is run with (scripts/conformance/).

const dir = mkdtempSync(join(tmpdir(), 'mcp-golden-glob-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('globToRegExp: * stays in one folder, **/ spans any number (none included), ? is one character', () => {
  const any = globToRegExp('**/checks.json');
  expect(['checks.json', 'a/checks.json', 'a/b/checks.json'].every((p) => any.test(p))).toBe(true);
  expect(['checks.jsonl', 'a/xchecks.json', 'checks.json/x'].some((p) => any.test(p))).toBe(false);
  expect(globToRegExp('*.json').test('a/b.json')).toBe(false);
  expect(globToRegExp('a?c.json').test('abc.json')).toBe(true);
  expect(globToRegExp('a.c').test('abc')).toBe(false);
});

test('globSync finds the results the suite looks for, relative to cwd, and nothing under a missing folder', () => {
  mkdirSync(join(dir, 'server-x', 'deep'), { recursive: true });
  writeFileSync(join(dir, 'server-x', 'checks.json'), '[]');
  writeFileSync(join(dir, 'server-x', 'deep', 'checks.json'), '[]');
  writeFileSync(join(dir, 'server-x', 'other.json'), '[]');
  expect(globSync('**/checks.json', { cwd: dir }).sort()).toEqual(
    [join('server-x', 'checks.json'), join('server-x', 'deep', 'checks.json')].sort(),
  );
  expect(globSync('**/checks.json', { cwd: join(dir, 'missing') })).toEqual([]);
});

test("node20-glob-sync.mjs gives `import { globSync } from 'fs'` on this Node, and leaves other fs names alone", () => {
  const probe = join(dir, 'probe.mjs');
  writeFileSync(
    probe,
    "import { globSync, readFileSync } from 'fs';\nimport fs from 'node:fs';\nconsole.log(typeof globSync, typeof readFileSync, typeof fs.readdirSync);\n",
  );
  const hook = join(process.cwd(), 'scripts', 'conformance', 'node20-glob-sync.mjs');
  const run = spawnSync(process.execPath, ['--import', hook, probe], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.stdout.trim()).toBe('function function function');
});
