import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(await readFile(`${root}package.json`, 'utf8')) as {
  version: string;
  scripts: Record<string, string>;
};
const readme = await readFile(`${root}README.md`, 'utf8');

test('the published package.json has no prepare script: the build runs in prepack', () => {
  // scripts/ does not ship, so a `prepare` in the packed package.json fails or warns on every install.
  expect(pkg.scripts.prepare).toBeUndefined();
  expect(pkg.scripts.prepack).toBe('npm run build');
});

test('the scripts a newcomer runs in a clone build dist/ first', () => {
  for (const name of ['demo', 'goldens']) {
    expect(pkg.scripts[name]).toMatch(/^node scripts\/build\.mjs --if-stale && node dist\/bin\/mcp-golden\.js /);
  }
});

test("README's install section shows the registry, the clone and the tarball, with exact commands", () => {
  const section = readme.slice(readme.indexOf('## Install'), readme.indexOf('## A complete test file'));
  expect(section).toContain('npm install --save-dev mcp-golden vitest msw @types/node');
  const tarball = `mcp-golden-${pkg.version}.tgz`;
  expect(section).toContain(`cd mcp-golden && npm install && npm pack        # writes ${tarball}`);
  expect(section).toContain(`npm install --save-dev ../mcp-golden/${tarball} vitest msw @types/node`);
});
