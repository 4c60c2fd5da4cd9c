import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  INSPECTOR_INSTALL_COMMAND,
  INSPECTOR_VERSION,
  inspectorBin,
  installedVersion,
} from '../../scripts/inspector/install.mjs';

export { INSPECTOR_VERSION };

/** What one Inspector CLI command printed, and how it exited. */
export interface InspectorResult {
  readonly code: number | null;
  /** The JSON the command printed on stdout, when it printed one. */
  readonly json: unknown;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The MCP Inspector 2.12.0's `mcp-inspector` bin in .inspector/ (what `npx @modelcontextprotocol/inspector@2.12.0`
 * runs). A missing or other version fails the test naming the install command: installing takes ~40 s and
 * several files calling the Inspector at once would race on one folder, so the tests do not install it.
 */
function bin(): string {
  const path = inspectorBin();
  const version = installedVersion();
  if (version !== INSPECTOR_VERSION || path === undefined || !existsSync(path))
    throw new Error(
      `[mcp-golden tests] the MCP Inspector ${INSPECTOR_VERSION} CLI is not installed in .inspector/ (found ${version ?? 'nothing'}). Install it with \`${INSPECTOR_INSTALL_COMMAND}\` (.ci/run does), then rerun the tests.`,
    );
  return path;
}

/** Runs the Inspector's bin with `args` to completion (killed after 30 s), as a user's `npx ... <args>` would. */
function runInspector(args: readonly string[]): Promise<InspectorResult> {
  const path = bin();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
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

/**
 * Runs `mcp-inspector --cli <target> --method <method> ...args` (the Inspector 2.12.0 CLI) to completion:
 * `target` is a URL, or a command and its arguments (a stdio server the Inspector starts).
 */
export function inspectorCli(
  target: readonly string[],
  method: string,
  args: readonly string[] = [],
): Promise<InspectorResult> {
  return runInspector(['--cli', ...target, '--method', method, ...args]);
}

/** The version the Inspector's CLI reports (`mcp-inspector --cli --version`). */
export async function inspectorCliVersion(): Promise<string> {
  return (await runInspector(['--cli', '--version'])).stdout.trim();
}
