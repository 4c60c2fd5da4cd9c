import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { CLI } from '../../test/support/cli.js';
import { runInProcess } from '../../test/support/in-process-cli.js';
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
 * The modules under dist/ that `mcp-golden ...args` loaded, as paths relative to dist/ (a resolve
 * hook in the child prints each one).
 */
async function modulesLoadedBy(args: string[]): Promise<string[]> {
  // writeSync: the hooks run on a thread of their own, whose buffered stderr writes can be lost when
  // a `--help` process exits at once (a fresh-clone CI run missed cli/serve-command.js that way).
  const hooks = `import { writeSync } from 'node:fs'; export async function resolve(s, c, next) { const r = await next(s, c); if (r.url.includes('/dist/')) writeSync(2, 'loaded ' + r.url.slice(r.url.indexOf('/dist/') + 6) + '\\n'); return r; }`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  const { stderr } = await promisify(execFile)(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(register)}`, CLI, ...args],
    { encoding: 'utf8' },
  );
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('loaded '))
    .map((line) => line.slice('loaded '.length));
}

describe('each command loads only its own code', () => {
  test('`lint --help` and `serve --help` load no recorder, replayer or check; --version loads no command', async () => {
    const [lint, serve, version] = await Promise.all([
      modulesLoadedBy(['lint', '--help']),
      modulesLoadedBy(['serve', '--help']),
      modulesLoadedBy(['--version']),
    ]);
    expect(lint).toContain('cli/lint-command.js');
    expect(serve).toContain('cli/serve-command.js');
    const heavy = /^(record\/record-call|replay\/replay-server|check\/run-check|verify\/verify-goldens|msw\/)/;
    for (const loaded of [lint, serve]) expect(loaded.filter((path) => heavy.test(path))).toEqual([]);
    expect(version.filter((path) => path.endsWith('-command.js'))).toEqual([]);
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
