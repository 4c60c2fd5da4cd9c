// `globSync(pattern | patterns, { cwd })` as Node 22's `fs.globSync` answers the conformance suite's one use
// (`**/checks.json` under its results folder): the relative paths under `cwd` that match, found with
// `readdirSync(cwd, { recursive: true })` and a `*` / `**` / `?` matcher.
import { existsSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';

/** A glob pattern as a regular expression over `/`-separated relative paths. */
export function globToRegExp(pattern) {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '*' && pattern[i + 1] === '*') {
      const slash = pattern[i + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

export function globSync(patterns, options = {}) {
  const cwd = options.cwd === undefined ? process.cwd() : String(options.cwd);
  if (!existsSync(cwd)) return [];
  const matchers = (Array.isArray(patterns) ? patterns : [patterns]).map(globToRegExp);
  return readdirSync(cwd, { recursive: true })
    .map(String)
    .filter(
      (entry) => matchers.some((matcher) => matcher.test(entry.split(sep).join('/'))) && existsSync(join(cwd, entry)),
    );
}
