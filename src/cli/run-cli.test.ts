import { afterEach, describe, expect, test, vi } from 'vitest';
import { formatUsage, parseCommandArgs } from './command-spec.js';
import { COMMANDS, runCli } from './run-cli.js';

/** A one-letter slip: the middle letter typed twice. */
function typo(name: string): string {
  const at = Math.floor(name.length / 2);
  return `${name.slice(0, at)}${name[at]}${name.slice(at)}`;
}

/** Runs the CLI in-process and returns what it printed on stdout. */
async function stdoutOf(argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  const code = await runCli(argv);
  vi.restoreAllMocks();
  return { code, out };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('help and behaviour come from one declaration per command', () => {
  test('the command list names every command, each once', async () => {
    const { code, out } = await stdoutOf(['--help']);
    expect(code).toBe(0);
    const names = COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const spec of COMMANDS) expect(out).toContain(`  ${spec.name.padEnd(9)} ${spec.summary}`);
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

  test('a mistyped command suggests the nearest one', async () => {
    await expect(runCli(['recrod'])).rejects.toThrow(
      'Unknown command "recrod". Did you mean record? Expected one of: serve, record,',
    );
    await expect(runCli(['help', 'lnit'])).rejects.toThrow('Did you mean lint?');
    await expect(runCli(['zzzzzzzz'])).rejects.toThrow(/^Unknown command "zzzzzzzz"\. Expected one of:/);
  });

  test('--version prints a version', async () => {
    const { code, out } = await stdoutOf(['--version']);
    expect(code).toBe(0);
    expect(out).toMatch(/^\d+\.\d+\.\d+/);
  });
});
