/** A glob pattern (`*`, `**`, `?`) as a regular expression over `/`-separated relative paths. */
export function globToRegExp(pattern: string): RegExp;
/** `fs.globSync` as Node 22 answers `globSync(pattern | patterns, { cwd })`: matching paths relative to `cwd`. */
export function globSync(patterns: string | readonly string[], options?: { cwd?: string }): string[];
