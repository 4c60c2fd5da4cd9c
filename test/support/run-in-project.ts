import { spawn } from 'node:child_process';
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
