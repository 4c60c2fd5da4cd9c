import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runInProcess as runCli } from '../../test/support/in-process-cli.js';
import { EVERYTHING } from '../../test/support/server-everything.js';
import { isGoldenError } from '../errors.js';
import { loadProjectConfig } from './project-config.js';
import { type RecordConfig, recordConfigOf } from './record-config.js';

/** A reference to an environment variable as the config file spells it (dollar, brace, name, brace). */
const ref = (name: string): string => `$\u007b${name}}`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-config-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const recordSection = async (cwd: string, path?: string): Promise<RecordConfig | undefined> =>
  recordConfigOf(await loadProjectConfig(cwd, path), process.env);

describe('the record section of the project config', () => {
  test('reads mcp-golden.config.json, resolving paths against it and expanding environment references', async () => {
    await writeFile(
      join(dir, 'mcp-golden.config.json'),
      JSON.stringify({
        record: {
          target: 'http://127.0.0.1:3001/mcp',
          headers: [`Authorization: Bearer ${ref('MY_TOKEN')}`],
          scenarios: 'mcp/scenarios.json',
          out: 'mcp/goldens',
        },
      }),
    );
    process.env.MY_TOKEN = 'from-env';
    try {
      expect(await recordSection(dir)).toEqual({
        target: 'http://127.0.0.1:3001/mcp',
        headers: ['Authorization: Bearer from-env'],
        scenarios: join(dir, 'mcp/scenarios.json'),
        out: join(dir, 'mcp/goldens'),
      });
    } finally {
      delete process.env.MY_TOKEN;
    }
  });

  test('falls back to the "mcp-golden" key of package.json, and to nothing', async () => {
    expect(await recordSection(dir)).toBeUndefined();
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({ 'mcp-golden': { record: { stdio: 'node server.js' } } }),
    );
    expect(await recordSection(dir)).toEqual({ stdio: 'node server.js' });
  });

  test('refuses an unset variable, an unknown key and a missing --config file, saying how to fix them', async () => {
    const file = join(dir, 'mcp-golden.config.json');
    await writeFile(
      file,
      JSON.stringify({ record: { target: 'http://h/mcp', headers: [`A: ${ref('NOT_SET_ANYWHERE')}`] } }),
    );
    const unset = await recordSection(dir).catch((e: unknown) => e);
    expect(isGoldenError(unset, 'E_USAGE')).toBe(true);
    expect((unset as Error).message).toContain(
      `uses ${ref('NOT_SET_ANYWHERE')}, but the environment variable NOT_SET_ANYWHERE is not set`,
    );
    await writeFile(file, JSON.stringify({ record: { taget: 'http://h/mcp' } }));
    expect(((await recordSection(dir).catch((e: unknown) => e)) as Error).message).toContain(
      'unknown key "taget" (did you mean "target"?) in "record", which takes "stdio", "target",',
    );
    expect(((await recordSection(dir, 'nope.json').catch((e: unknown) => e)) as Error).message).toContain(
      'Cannot read config "nope.json": no such file',
    );
  });
});

describe('npm run goldens for your own server', () => {
  test('`mcp-golden record` with only a config file records the configured server', async () => {
    await writeFile(
      join(dir, 'scenarios.json'),
      JSON.stringify([{ name: 'echo', tool: 'echo', arguments: { message: 'hi' } }]),
    );
    await writeFile(
      join(dir, 'mcp-golden.config.json'),
      JSON.stringify({
        record: {
          stdio: `'${process.execPath}' '${EVERYTHING}' stdio`,
          scenarios: 'scenarios.json',
          out: 'mcp-goldens',
        },
      }),
    );
    const result = await runCli(['record'], { cwd: dir });
    expect(result.stderr).toContain('1 golden written');
    expect(result.code).toBe(0);
    expect(await readdir(join(dir, 'mcp-goldens'))).toEqual(['echo.jsonl']);
  });

  test('--stdio/--target without --scenarios is a usage error that shows the format', async () => {
    const result = await runCli(['record', '--target', 'http://127.0.0.1:9/mcp'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '[mcp-golden] Missing --scenarios FILE: recording --target needs your own scenario list',
    );
  });
});
