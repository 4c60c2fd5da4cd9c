import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Source files whose top level does something when imported: a statement that is a call (or other expression). */
function filesWithTopLevelEffects(): string[] {
  const src = join(root, 'src');
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
    (path) => path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.endsWith('.d.ts'),
  );
  return files
    .filter((path) => {
      const text = readFileSync(join(src, path), 'utf8');
      const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest);
      return source.statements.some((s) => ts.isExpressionStatement(s));
    })
    .map((path) => `./${relative(root, join(root, 'dist', path.replace(/\.ts$/, '.js')))}`)
    .sort();
}

test('package.json lists in sideEffects exactly the modules that act when imported, so a bundler keeps the matchers', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { sideEffects?: unknown };
  expect(filesWithTopLevelEffects()).toContain('./dist/vitest/index.js');
  expect(pkg.sideEffects).toEqual(filesWithTopLevelEffects());
});
