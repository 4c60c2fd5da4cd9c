import { execFile } from 'node:child_process';
import { cp, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { CLI, runCli } from '../support/cli.js';
import { useTempDir } from '../support/temp-dir.js';

// One run per command through the real bin (package.json `bin`, the bundle in dist/bin/, as a process): it wires the
// process's streams, working directory and exit code into runCli. Everything else about a command
// is tested in process (docs/testing.md); `serve`, `replay`, `record --proxy` and `check` meet the
// bin where signals and process groups are the behaviour (serve-command.test.ts, record-proxy,
// replay-passthrough, check-processes).

const GOLDENS = fileURLToPath(new URL('../../goldens', import.meta.url));
const CHATTY = join(GOLDENS, 'chatty-stdio.jsonl');
const temp = useTempDir('mcp-golden-bin-');

describe('the bin', () => {
  test('--version prints the version and exits 0; an unknown command exits 2 with one [mcp-golden] line', async () => {
    const [version, unknown] = await Promise.all([runCli(['--version']), runCli(['recrod'])]);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^\[mcp-golden\] Unknown command "recrod"\. Did you mean record\?/);
  });

  test('lint and inspect read a golden relative to the working directory', async () => {
    const [lint, inspect] = await Promise.all([
      runCli(['lint', 'chatty-stdio.jsonl'], { cwd: GOLDENS }),
      runCli(['inspect', 'chatty-stdio.jsonl'], { cwd: GOLDENS }),
    ]);
    expect(lint.code, lint.stderr).toBe(0);
    expect(lint.stdout).toContain('chatty-stdio.jsonl: ok');
    expect(inspect.code, inspect.stderr).toBe(0);
    expect(inspect.stdout).toMatch(/^chatty-stdio\.jsonl\n/);
  });

  test('record writes a golden into --out relative to the working directory, and verify passes it', async () => {
    const recorded = await runCli(['record', 'chatty', '--out', 'out'], { cwd: temp.dir });
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(await readdir(join(temp.dir, 'out'))).toEqual(['chatty.jsonl']);
    const verified = await runCli(['verify', '--stdio', `${process.execPath} ${CLI} serve --stdio`, CHATTY]);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  });

  test('a stack trace of the bundled bin names the src/ lines it came from (source maps)', async () => {
    // A copy of the bin and package.json without dist/record/ beside it: the standard scenario list
    // is missing, an unexpected error, printed with its stack.
    const copy = join(temp.dir, 'bin-alone');
    await cp(join(GOLDENS, '../package.json'), join(copy, 'package.json'));
    await cp(dirname(CLI), join(copy, 'dist/bin'), { recursive: true });
    const run = await promisify(execFile)(
      process.execPath,
      [join(copy, 'dist/bin/mcp-golden.js'), 'record', 'chatty', '--out', join(temp.dir, 'never')],
      { encoding: 'utf8' },
    ).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? '' }),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^\[mcp-golden\] unexpected error: Error: ENOENT[^\n]*dist\/record\/standard-scenarios\.json/,
    );
    expect(run.stderr).toMatch(/at async loadStandardScenarios \([^)]*src\/record\/record-goldens\.ts:\d+:\d+\)/);
  });

  test('demo records, prints a timeline and exits 0', async () => {
    const demo = await runCli(['demo', 'chatty']);
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toContain('chatty · mcp-golden/1 · http');
  });
});
