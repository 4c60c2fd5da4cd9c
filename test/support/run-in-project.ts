import { spawn } from 'node:child_process';

/** What a command run in a scratch project printed (stdout and stderr, interleaved) and its exit code. */
export interface ProjectRun {
  readonly code: number | null;
  readonly output: string;
}

/**
 * Runs `node <script> ...args` in a scratch project as a user would: without this suite's vitest,
 * CI and update variables, without colour, killed after `timeoutMs` so a hang fails instead of stalling.
 */
export function runInProject(
  project: string,
  script: string,
  args: readonly string[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<ProjectRun> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'CI' && k !== 'MCP_GOLDEN_UPDATE'),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: project,
      env: { ...clean, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
