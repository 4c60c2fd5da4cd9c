import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { CLI } from '../support/cli.js';
import { killRun, newMark, processesOfRun } from './run-processes.js';

const support = (name: string): string => fileURLToPath(new URL(`../support/${name}`, import.meta.url));
const SILENT = `'${process.execPath}' '${support('silent-gateway.mjs')}'`;
const FAITHFUL = `'${process.execPath}' '${support('faithful-gateway.mjs')}'`;
const marks: string[] = [];

interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
  /** Processes of the run still alive 300 ms after the CLI exited. */
  readonly leftovers: string[];
}

/**
 * Runs `mcp-golden check ...args` with a mark in its environment; `interrupt` sends a signal to
 * the CLI once its stderr matches `when`. Hard-killed after 60 s so a hang fails, not stalls.
 */
function check(
  args: string[],
  interrupt?: { signal: NodeJS.Signals; when: RegExp },
  env: Readonly<Record<string, string>> = {},
): Promise<Run> {
  const mark = newMark();
  marks.push(mark);
  const started = Date.now();
  const child = spawn(process.execPath, [CLI, 'check', ...args], {
    env: { ...process.env, MCP_GOLDEN_RUN_MARK: mark, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let sent = false;
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    if (interrupt && !sent && interrupt.when.test(stderr)) {
      sent = true;
      child.kill(interrupt.signal);
    }
  });
  const hard = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      clearTimeout(hard);
      const ms = Date.now() - started;
      setTimeout(() => {
        const leftovers = processesOfRun(mark).map((p) => `${p.pid} ${p.command}`);
        resolve({ code, signal, stdout, stderr, ms, leftovers });
      }, 300);
    });
  });
}

afterAll(() => {
  for (const mark of marks) killRun(mark);
});

// Above the 60 s hard kill of check(): a run that hangs fails on its exit code and leftovers, not on vitest's timeout.
describe('check stops every process it started, on every path', { timeout: 90_000 }, () => {
  test.concurrent('a gateway that never answers and ignores SIGTERM costs one timeout and is killed', async () => {
    const run = await check(['--gateway', `${SILENT} {port} --ignore-term`, '--timeout', '2000']);
    // A setup error, not a verdict: one message, no table of failed rows.
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/listens but did not answer a first call within 2000 ms/);
    expect(run.stdout).toBe('');
    // One 2 s timeout, 2 s grace before SIGKILL, start-up (seconds on a loaded machine: 15.7 s in all once in
    // CI): far below one 2 s timeout for each of the 24 rows and its grace.
    expect(run.ms).toBeLessThan(30_000);
    expect(run.leftovers).toEqual([]);
  });

  test.concurrent('a gateway command that backgrounds its server is judged, then stopped with its group', async () => {
    const run = await check(['--gateway', `${FAITHFUL} {upstream} {port} &`, '--only', 'unicode', '--timeout', '5000']);
    expect(run.stderr).not.toContain('before listening');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/unicode/);
    expect(run.leftovers).toEqual([]);
  });

  test.concurrent('a gateway that exits before listening is reported, and its children are stopped', async () => {
    const plain = await check(['--gateway', 'echo starting {port}; exit 3', '--timeout', '2000']);
    expect(plain.code).toBe(3);
    expect(plain.stderr).toContain('exited with code 3 before listening');
    expect(plain.stderr).toContain('starting');
    expect(plain.leftovers).toEqual([]);
    const orphaned = await check(['--gateway', `${SILENT} 1 & exit 3 # {port}`, '--timeout', '2000']);
    expect(orphaned.code).toBe(3);
    expect(orphaned.stderr).toContain('did not listen on 127.0.0.1:');
    expect(orphaned.leftovers).toEqual([]);
  });

  test.concurrent('a stdio gateway that never answers initialize is a setup error (exit 3), and nothing the check started is left running', async () => {
    // It listens on a port of its own and never reads stdin; it ignores SIGTERM, and a child shares its group.
    const gateway = `sleep 60 & ${SILENT} 0 --ignore-term # {upstream}`;
    const run = await check(['--client-transport', 'stdio', '--gateway', gateway, '--timeout', '2000']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/did not take a first call over stdio/);
    expect(run.leftovers).toEqual([]);
  });

  test.concurrent.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)(
    '%s to check mid-run stops the gateway and the upstream and exits 128+n',
    async (signal) => {
      const run = await check(['--gateway', `${FAITHFUL} {upstream} {port}`, '--timeout', '5000'], {
        signal,
        when: /\[3\/\d+\]/,
      });
      expect(run.code).toBe({ SIGINT: 130, SIGTERM: 143, SIGHUP: 129 }[signal]);
      expect(run.stderr).toContain(`check stopped by ${signal}`);
      expect(run.leftovers).toEqual([]);
    },
  );

  test.concurrent('SIGTERM mid-run with stdio on both sides stops the spawned upstream too, and leaves no temporary folder', async () => {
    // Its own TMPDIR: the audit folder the stdio upstream writes to is the only thing the check puts there.
    const tmp = await mkdtemp(join(tmpdir(), 'mcp-golden-test-tmp-'));
    try {
      const run = await check(
        ['--upstream-transport', 'stdio', '--client-transport', 'stdio', '--gateway', '{upstream} # {port}'],
        { signal: 'SIGTERM', when: /\[2\/\d+\]/ },
        { TMPDIR: tmp },
      );
      expect(run.code).toBe(143);
      expect(run.leftovers).toEqual([]);
      expect(await readdir(tmp)).toEqual([]);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  });
});
