import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Absolute path of the bin as it ships (package.json's `bin`: the bundle in dist/bin/, scripts/bundle-bin.mjs). */
export const CLI = fileURLToPath(new URL('../../dist/bin/mcp-golden.js', import.meta.url));

/** tsc's entry point of the same CLI (dist/cli/main.js), each module and dependency loaded on its own. */
export const UNBUNDLED_CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** Result of running the CLI to completion. */
export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `mcp-golden ...args` to completion (killed after `timeoutMs`). */
export function runCli(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Spawns a long-running CLI command and resolves once its first stdout line appears. */
export function startCli(args: readonly string[]): Promise<{
  child: ChildProcess;
  firstLine: string;
  stop: () => Promise<void>;
  /** What it wrote to stderr so far. */
  stderr: () => string;
  /** Sends `signal` and resolves with the exit code (null when a signal ended it). */
  interrupt: (signal: NodeJS.Signals) => Promise<number | null>;
}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const interrupt = async (signal: NodeJS.Signals): Promise<number | null> => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    };
    const stop = async (): Promise<void> => {
      await interrupt('SIGTERM');
    };
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const newline = out.indexOf('\n');
      if (newline >= 0) resolve({ child, firstLine: out.slice(0, newline), stop, stderr: () => err, interrupt });
    });
    child.on('exit', (code) => reject(new Error(`mcp-golden ${args.join(' ')} exited with ${code}: ${err}`)));
  });
}
