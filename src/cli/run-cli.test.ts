import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { CLI, UNBUNDLED_CLI } from '../../test/support/cli.js';
import { runInProcess } from '../../test/support/in-process-cli.js';
import { MIN_CHECK_TIMEOUT_MS } from '../check/run-check.js';
import { MIN_TIMEOUT_MS } from './check-command.js';
import { formatUsage, parseCommandArgs } from './command-spec.js';
import { loadCommands } from './run-cli.js';

const COMMANDS = await loadCommands();

/** A one-letter slip: the middle letter typed twice. */
function typo(name: string): string {
  const at = Math.floor(name.length / 2);
  return `${name.slice(0, at)}${name[at]}${name.slice(at)}`;
}

/** Runs the CLI in-process and returns what it printed on stdout. */
async function stdoutOf(argv: string[]): Promise<{ code: number | null; out: string }> {
  const { code, stdout } = await runInProcess(argv);
  return { code, out: stdout };
}

/**
 * The modules a chunk of the bundled bin (dist/bin/) holds, named as tsc's modules in dist/ are
 * (`src/cli/run-cli.ts` is `cli/run-cli.js`), a dependency by its path under node_modules: the
 * sources of the chunk's map, or for a chunk without one (an entry, a re-export, the bundler's
 * runtime), the `// <path>` line rolldown writes above each module it puts in a chunk.
 */
function chunkModules(url: string): string[] {
  const file = fileURLToPath(url);
  const sources = existsSync(`${file}.map`)
    ? (JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] }).sources
    : [...readFileSync(file, 'utf8').matchAll(/^\/\/ (\S+\.[cm]?[jt]s)$/gm)].map((m) => m[1] ?? '');
  return sources.map((source) => {
    const path = source.replace(/^(?:\.\.\/)+/, '');
    return path.startsWith('src/') ? path.slice('src/'.length).replace(/\.ts$/, '.js') : path;
  });
}

/**
 * The modules that `node <cli> ...args` loaded: under dist/ as paths relative to dist/, anything else
 * (a dependency) by its URL; node's own modules left out (a resolve hook in the child prints each one).
 * From the bundled bin, each chunk it read stands for the modules it holds ({@link chunkModules}).
 */
async function modulesLoadedBy(args: string[], cli = UNBUNDLED_CLI): Promise<string[]> {
  // writeSync: the hooks run on a thread of their own, whose buffered stderr writes can be lost when
  // a `--help` process exits at once (a fresh-clone CI run missed cli/serve-command.js that way).
  const hooks = `import { writeSync } from 'node:fs'; export async function resolve(s, c, next) { const r = await next(s, c); if (!r.url.startsWith('node:')) writeSync(2, 'loaded ' + (r.url.includes('/dist/') ? r.url.slice(r.url.indexOf('/dist/') + 6) : r.url) + '\\n'); return r; }`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  const { stderr } = await promisify(execFile)(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(register)}`, cli, ...args],
    { encoding: 'utf8' },
  ).catch((error: { stderr?: string }) => ({ stderr: error.stderr ?? '' }));
  const loaded = stderr
    .split('\n')
    .filter((line) => line.startsWith('loaded '))
    .map((line) => line.slice('loaded '.length));
  if (cli === UNBUNDLED_CLI) return loaded;
  const chunk = (path: string) => chunkModules(new URL(`../../dist/${path}`, import.meta.url).href);
  return [...new Set([...new Set(loaded)].flatMap((path) => (path.startsWith('bin/') ? chunk(path) : [path])))];
}

/**
 * What a command's declaration may load: the table, the parser and each command's declaration with
 * the option lists it spreads in. No implementation (recorder, replayer, check, verify, lint,
 * stores, reports) and no dependency (the SDK, zod, ajv, json-p3).
 */
const DECLARATION =
  /^(cli\/(main|run-cli|cli-io|command-spec|listen-error|listen-options|target-options|config-file|record-config|report-options|replay-fault-option|check-client|[a-z-]+-command)|errors|wrap|transcript\/(json-object|named-masks)|lint\/lint-rules)\.js$/;

describe('help and usage errors load no implementation', () => {
  test('`--help`, `--version` and a mistyped command load declarations only, and --version none', async () => {
    const [help, version, mistyped] = await Promise.all([
      modulesLoadedBy(['--help']),
      modulesLoadedBy(['--version']),
      modulesLoadedBy(['recrod']),
    ]);
    for (const spec of COMMANDS) expect(help).toContain(`cli/${spec.name}-command.js`);
    for (const loaded of [help, version, mistyped])
      expect(loaded.filter((path) => !DECLARATION.test(path))).toEqual([]);
    expect(version.filter((path) => path.endsWith('-command.js'))).toEqual([]);
  });

  test.each(COMMANDS.map((spec) => [spec.name, spec] as const))(
    '`%s --help`, an unknown option and a value out of range load its declaration only',
    async (name, spec) => {
      const bounded = Object.entries(spec.options).find(([, o]) => o.integer);
      const outOfRange = bounded
        ? [`--${bounded[0]}`, String((bounded[1].integer?.max ?? 0) + 1)]
        : ['--no-such-option'];
      const operands = spec.minOperands ? ['x.jsonl'] : [];
      const runs = await Promise.all([
        modulesLoadedBy([name, '--help']),
        modulesLoadedBy([name, ...operands, '--no-such-option']),
        modulesLoadedBy([name, ...operands, ...outOfRange]),
      ]);
      for (const loaded of runs) {
        expect(loaded).toContain(`cli/${name}-command.js`);
        expect(loaded.filter((path) => !DECLARATION.test(path))).toEqual([]);
        expect(loaded.filter((path) => path.endsWith('-command.js'))).toEqual([`cli/${name}-command.js`]);
      }
    },
  );

  test('the bundled bin (package.json `bin`) reads only chunks of declarations for help, --version and usage errors', async () => {
    const runs = await Promise.all([
      modulesLoadedBy(['--help'], CLI),
      modulesLoadedBy(['--version'], CLI),
      modulesLoadedBy(['recrod'], CLI),
      ...COMMANDS.map((spec) => modulesLoadedBy([spec.name, '--no-such-option'], CLI)),
    ]);
    const [help, version] = runs;
    for (const spec of COMMANDS) expect(help).toContain(`cli/${spec.name}-command.js`);
    expect(version?.filter((path) => path.endsWith('-command.js'))).toEqual([]);
    for (const loaded of runs) {
      expect(loaded).toContain('cli/run-cli.js');
      expect(loaded.filter((path) => !DECLARATION.test(path))).toEqual([]);
    }
    COMMANDS.forEach((spec, i) => {
      expect(runs[3 + i]?.filter((path) => path.endsWith('-command.js'))).toEqual([`cli/${spec.name}-command.js`]);
    });
  });

  test("check's --timeout floor is the battery's", () => {
    expect(MIN_TIMEOUT_MS).toBe(MIN_CHECK_TIMEOUT_MS);
    expect(COMMANDS.find((spec) => spec.name === 'check')?.options.timeout?.integer?.min).toBe(MIN_CHECK_TIMEOUT_MS);
  });

  test('check --timeout below the battery minimum is a usage error naming the minimum', async () => {
    const run = await runInProcess(['check', '--gateway', 'x {port}', '--timeout', '400']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Invalid --timeout "400": expected a whole number from 2000');
  });

  test('every loader gives the command it is listed under', () => {
    expect(COMMANDS.map((c) => c.name)).toEqual([
      'serve',
      'record',
      'replay',
      'check',
      'verify',
      'diff',
      'inspect',
      'lint',
      'merge-reports',
      'demo',
    ]);
  });
});

describe('help and behaviour come from one declaration per command', () => {
  test('the command list names every command, each once', async () => {
    const { code, out } = await stdoutOf(['--help']);
    expect(code).toBe(0);
    const names = COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    const width = Math.max(...names.map((n) => n.length));
    for (const spec of COMMANDS) expect(out).toContain(`  ${spec.name.padEnd(width)} ${spec.summary}`);
  });

  describe.each(COMMANDS.map((spec) => [spec.name, spec] as const))('%s', (name, spec) => {
    test('--help, -h and `help <command>` print every declared option', async () => {
      const help = await stdoutOf([name, '--help']);
      expect(help.code).toBe(0);
      expect(help.out).toBe(`${formatUsage(spec)}\n`);
      expect((await stdoutOf([name, '-h'])).out).toBe(help.out);
      expect((await stdoutOf(['help', name])).out).toBe(help.out);
      for (const [option, o] of Object.entries(spec.options)) {
        expect(help.out).toContain(`--${option}`);
        expect(help.out.replace(/\s+/g, ' ')).toContain(o.description);
      }
    });

    test.each(Object.keys(spec.options).map((option) => [option]))('a mistyped --%s suggests it', (option) => {
      const operands = spec.minOperands ? ['x.jsonl'] : [];
      expect(() => parseCommandArgs(spec, [...operands, `--${typo(option)}`])).toThrow(
        `Unknown option "--${typo(option)}" for \`${name}\`. Did you mean --${option}?`,
      );
    });
  });

  test('a mistyped command suggests the nearest one, as a usage error (exit 2)', async () => {
    const recrod = await runInProcess(['recrod']);
    expect(recrod.code).toBe(2);
    expect(recrod.stderr).toContain(
      '[mcp-golden] Unknown command "recrod". Did you mean record? Expected one of: serve, record,',
    );
    expect((await runInProcess(['help', 'lnit'])).stderr).toContain('Did you mean lint?');
    expect((await runInProcess(['zzzzzzzz'])).stderr).toMatch(
      /^\[mcp-golden\] Unknown command "zzzzzzzz"\. Expected one of:/,
    );
  });

  test('--version prints a version', async () => {
    const { code, out } = await stdoutOf(['--version']);
    expect(code).toBe(0);
    expect(out).toMatch(/^\d+\.\d+\.\d+/);
  });
});
