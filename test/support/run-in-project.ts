import { type ChildProcess, spawn } from 'node:child_process';
import { copyFile, cp, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A user's project in a new folder under test/.tmp-projects (`name` starts its folder name), with
 * its own package.json and this repository's built package installed in node_modules/mcp-golden as
 * a folder of its own, as npm installs it; its dependencies resolve from this repository's
 * node_modules, above the project. Without a package.json of its own, `mcp-golden/...` in the
 * project would resolve to this repository itself (a package may import itself by name); through a
 * symlink, vitest would follow the link to its real path. Either way the package would be outside
 * node_modules, and vitest would run all of dist through its transform instead of loading it as a
 * dependency: not what a user's run does, and 0.6 s more CPU per run. Returns the project's path.
 */
export async function createUserProject(name: string): Promise<string> {
  await mkdir(join(root, 'test/.tmp-projects'), { recursive: true });
  const project = await mkdtemp(join(root, 'test/.tmp-projects', `${name}-`));
  await writeFile(join(project, 'package.json'), `${JSON.stringify({ name, private: true, type: 'module' })}\n`);
  const target = join(project, 'node_modules', 'mcp-golden');
  await mkdir(target, { recursive: true });
  await copyFile(join(root, 'package.json'), join(target, 'package.json'));
  await cp(join(root, 'dist'), join(target, 'dist'), {
    recursive: true,
    filter: (source) => !/\.test\.|\.map$/.test(source),
  });
  return project;
}

/** What a command run in a scratch project printed (stdout and stderr, interleaved) and its exit code. */
export interface ProjectRun {
  readonly code: number | null;
  readonly output: string;
}

/** This process's environment as a user's shell has it: without this suite's vitest, CI and update variables, without colour. */
function userEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'CI' && k !== 'MCP_GOLDEN_UPDATE'),
  );
  return { ...clean, NO_COLOR: '1', FORCE_COLOR: '0', ...env };
}

/** Waits for a child to end (killed after `timeoutMs`, so a hang fails instead of stalling) with its output. */
function finished(
  child: ChildProcess,
  timeoutMs: number,
  kill: () => void = () => child.kill('SIGKILL'),
): Promise<ProjectRun> {
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(kill, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
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
  const child = spawn(process.execPath, [script, ...args], {
    cwd: project,
    env: userEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return finished(child, timeoutMs);
}

/** A command line run by /bin/sh in a project as a user's terminal runs it, with the same limits as {@link runInProject}. */
export function runShellInProject(
  project: string,
  command: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<ProjectRun> {
  // In a group of its own: what the line left running (`cmd &` inside it) is stopped when the shell
  // ends, or the line is killed whole at its time limit; a left-over server would outlive the test.
  const child = spawn('/bin/sh', ['-c', command], {
    cwd: project,
    env: userEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const killGroup = (): void => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // The group has already ended.
    }
  };
  child.on('exit', killGroup);
  return finished(child, timeoutMs, killGroup);
}

/** A command running in the background of a project, in a process group of its own. */
export interface ProjectJob {
  /** Stops the whole group (SIGTERM, then SIGKILL after 3 s) and resolves to what it printed. Idempotent. */
  stop(): Promise<ProjectRun>;
}

/**
 * Starts a command line in the background of a project (`command &` in a terminal) and resolves once
 * it printed its first line on stdout (a server's URL), or rejects with its output if it ended first.
 */
export async function startShellInProject(
  project: string,
  command: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<ProjectJob> {
  const child = spawn('/bin/sh', ['-c', command], {
    cwd: project,
    env: userEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const signal = (name: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, name);
    } catch {
      // The group has already ended.
    }
  };
  const done = finished(child, timeoutMs, () => signal('SIGKILL'));
  const firstLine = new Promise<void>((resolve) => {
    let seen = '';
    child.stdout.on('data', (d: Buffer) => {
      seen += d.toString();
      if (seen.includes('\n')) resolve();
    });
  });
  const ended = await Promise.race([firstLine.then(() => undefined), done]);
  if (ended) throw new Error(`\`${command} &\` ended (code ${ended.code}) before printing a line:\n${ended.output}`);
  let stopped: Promise<ProjectRun> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        signal('SIGTERM');
        const grace = setTimeout(() => signal('SIGKILL'), 3000);
        const run = await done;
        clearTimeout(grace);
        return run;
      })();
      return stopped;
    },
  };
}
