import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runInProcess as runCli } from '../../test/support/in-process-cli.js';
import { isGoldenError } from '../errors.js';
import { loadProjectConfig } from './project-config.js';
import { recordConfigOf } from './record-config.js';
import { verifyConfigOf } from './verify-config.js';

const STRESS = fileURLToPath(new URL('../../goldens/progress-100x10.jsonl', import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-project-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const failure = async (cwd: string, path?: string): Promise<Error> => {
  const error = await loadProjectConfig(cwd, path).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isGoldenError(error, 'E_USAGE')).toBe(true);
  return error as Error;
};

describe('loadProjectConfig', () => {
  test('one file serves every command: each section is read by its own, and an environment reference in record troubles no other', async () => {
    await writeFile(
      join(dir, 'mcp-golden.config.json'),
      JSON.stringify({
        record: { target: 'http://127.0.0.1:9/mcp', headers: [`A: $\u007bNOT_SET_ANYWHERE}`] },
        verify: { mask: ['uuid'], goldens: { report: { ignore: ['$..requestId'] } } },
        lint: { rules: { rate: false }, maxSilenceMs: 2000 },
      }),
    );
    const loaded = await loadProjectConfig(dir);
    expect(loaded?.source).toBe(join(dir, 'mcp-golden.config.json'));
    expect(loaded?.config.lint).toEqual({ rules: { rate: false }, maxSilenceMs: 2000 });
    const verify = verifyConfigOf(loaded);
    expect(verify.volatile).toEqual({ mask: ['uuid'] });
    expect(verify.volatileFor('goldens/report.jsonl')).toEqual({ ignore: ['$..requestId'] });
    expect(() => recordConfigOf(loaded, process.env)).toThrow('the environment variable NOT_SET_ANYWHERE is not set');
  });

  test('record refuses a config file without a record section; package.json without one leaves record to its defaults', async () => {
    await writeFile(join(dir, 'package.json'), JSON.stringify({ 'mcp-golden': { lint: { rules: { rate: false } } } }));
    expect(recordConfigOf(await loadProjectConfig(dir), process.env)).toBeUndefined();
    await writeFile(join(dir, 'mcp-golden.config.json'), JSON.stringify({ lint: { rules: { rate: false } } }));
    const loaded = await loadProjectConfig(dir);
    expect(verifyConfigOf(loaded).volatile).toEqual({});
    expect(() => recordConfigOf(loaded, process.env)).toThrow('no "record" section');
  });

  test('refuses invalid JSON, unknown keys and wrong types in any section, naming the file and the key', async () => {
    const file = join(dir, 'mcp-golden.config.json');
    await writeFile(file, '{ "lint": ');
    expect((await failure(dir)).message).toContain(`Invalid config in ${file}: not valid JSON`);
    await writeFile(file, JSON.stringify({ lnit: {} }));
    expect((await failure(dir)).message).toContain(
      `Invalid config in ${file}: unknown key "lnit" (did you mean "lint"?) in the config, which takes "record", "verify", "lint".`,
    );
    await writeFile(file, JSON.stringify({ verify: { goldens: { 'a.jsonl': { ignor: [] } } } }));
    expect((await failure(dir)).message).toContain(
      'unknown key "ignor" (did you mean "ignore"?) in "verify.goldens.a.jsonl", which takes "ignore", "mask".',
    );
    await writeFile(file, JSON.stringify({ lint: { rules: { 'no-such-rule': false } } }));
    expect((await failure(dir)).message).toContain('key "no-such-rule" in "lint.rules" must be a rule id: token-echo,');
    await writeFile(file, JSON.stringify({ lint: { maxSilenceMs: 0 } }));
    expect((await failure(dir)).message).toContain('"lint.maxSilenceMs" must be a whole number >= 1');
    await writeFile(file, JSON.stringify({ verify: { goldens: { report: { mask: 'uuid' } } } }));
    expect((await failure(dir)).message).toContain('"verify.goldens.report.mask" must be an array of strings');
    await writeFile(file, JSON.stringify({ record: { stdio: 42 } }));
    expect((await failure(dir)).message).toContain('"record.stdio" must be a string');
  });

  test('falls back to the "mcp-golden" key of package.json, checked the same way, and to nothing', async () => {
    expect(await loadProjectConfig(dir)).toBeUndefined();
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'x', 'mcp-golden': { lint: { rateWindow: 3 } } }),
    );
    expect((await loadProjectConfig(dir))?.config).toEqual({ lint: { rateWindow: 3 } });
    await writeFile(join(dir, 'package.json'), JSON.stringify({ 'mcp-golden': { lint: { rateWindow: '3' } } }));
    expect((await failure(dir)).message).toContain(`${join(dir, 'package.json')} ("mcp-golden")`);
  });
});

describe('mcp-golden lint reads the project config', () => {
  test('from mcp-golden.config.json', async () => {
    // The golden switches `rate` off in its notes; the project switches it back on.
    await writeFile(join(dir, 'mcp-golden.config.json'), JSON.stringify({ lint: { rules: { rate: true } } }));
    const result = await runCli(['lint', STRESS], { cwd: dir });
    expect(result.stdout).toContain(' rate: ');
    expect(result.code).toBe(1);
  });

  test('and says so when package.json is not valid JSON, instead of ignoring it', async () => {
    await writeFile(join(dir, 'package.json'), '{ "mcp-golden": ');
    const result = await runCli(['lint', STRESS], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`[mcp-golden] Invalid config in ${join(dir, 'package.json')}: not valid JSON`);
  });
});
