// Installs the MCP Inspector (its 2.12.0 release, whose `--cli` the tests drive as a real client) into
// .inspector/ (ignored by git), when it is missing or at another version. It is not a devDependency: it and
// two of its dependencies declare Node >= 22, which this project's engine-strict install refuses on Node 20;
// in its own folder, with engine-strict off, it installs, and its CLI runs on Node 20 (npm prints engine
// warnings, as `npx @modelcontextprotocol/inspector@2.12.0 --cli` does for a user). `.ci/run` calls this.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const INSPECTOR_PACKAGE = '@modelcontextprotocol/inspector';
export const INSPECTOR_VERSION = '2.12.0';
export const INSPECTOR_DIR = fileURLToPath(new URL('../../.inspector/', import.meta.url));
export const INSPECTOR_INSTALL_COMMAND = 'node scripts/inspector/install.mjs';
const packageDir = join(INSPECTOR_DIR, 'node_modules', ...INSPECTOR_PACKAGE.split('/'));

function manifest() {
  const path = join(packageDir, 'package.json');
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
}

/** The installed Inspector's version, or `undefined` when it is not installed. */
export function installedVersion() {
  return manifest()?.version;
}

/**
 * The file `npx @modelcontextprotocol/inspector@2.12.0` runs: the package's `mcp-inspector` bin (its
 * launcher, which hands `--cli ...` to the CLI client), or `undefined` when it is not installed.
 */
export function inspectorBin() {
  const bin = manifest()?.bin?.['mcp-inspector'];
  return bin === undefined ? undefined : join(packageDir, bin);
}

/** Installs the pinned Inspector into .inspector/ unless it is there already; throws with npm's output when npm fails. */
export function ensureInspector({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const bin = inspectorBin();
  if (installedVersion() === INSPECTOR_VERSION && bin !== undefined && existsSync(bin)) return false;
  mkdirSync(INSPECTOR_DIR, { recursive: true });
  writeFileSync(
    join(INSPECTOR_DIR, 'package.json'),
    `${JSON.stringify({ name: 'inspector', private: true }, null, 2)}\n`,
  );
  writeFileSync(join(INSPECTOR_DIR, '.npmrc'), 'engine-strict=false\n');
  log(`[mcp-golden] installing ${INSPECTOR_PACKAGE}@${INSPECTOR_VERSION} into .inspector/`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(
    npm,
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--no-save',
      '--engine-strict=false',
      `${INSPECTOR_PACKAGE}@${INSPECTOR_VERSION}`,
    ],
    { cwd: INSPECTOR_DIR, encoding: 'utf8' },
  );
  const installed = inspectorBin();
  if (
    result.status !== 0 ||
    installedVersion() !== INSPECTOR_VERSION ||
    installed === undefined ||
    !existsSync(installed)
  ) {
    throw new Error(
      `[mcp-golden] could not install ${INSPECTOR_PACKAGE}@${INSPECTOR_VERSION} into .inspector/ (npm exit ${result.status}):\n${result.stderr || result.error?.message || ''}\nfix: npm install --prefix .inspector --no-save --engine-strict=false ${INSPECTOR_PACKAGE}@${INSPECTOR_VERSION}`,
    );
  }
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const installed = ensureInspector();
    process.stdout.write(
      `${INSPECTOR_PACKAGE}@${INSPECTOR_VERSION} ${installed ? 'installed' : 'already installed'} in .inspector/\n`,
    );
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
