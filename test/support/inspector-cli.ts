import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The Inspector's CLI (`@modelcontextprotocol/inspector-cli` 1.0.3, the `mcp-inspector-cli` bin). */
const PACKAGE = dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/package.json'));
const BIN = join(PACKAGE, 'build', 'cli.js');

/** What one Inspector CLI command printed, and how it exited. */
export interface InspectorResult {
  readonly code: number | null;
  /** The JSON the command printed on stdout, when it printed one. */
  readonly json: unknown;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `mcp-inspector-cli --cli <target> --method <method> ...args` to completion (killed after
 * 30 s). It runs from its own build folder: 1.0.3 looks for its package.json relative to the
 * working directory and fails anywhere else.
 */
export function inspectorCli(
  target: readonly string[],
  method: string,
  args: readonly string[] = [],
): Promise<InspectorResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, '--cli', ...target, '--method', method, ...args], {
      cwd: join(PACKAGE, 'build'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code, json, stdout, stderr });
    });
  });
}
