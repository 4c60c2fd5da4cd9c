// Installs the official MCP conformance suite into .conformance/ (ignored by git), when it is missing or
// at another version. It is not a devDependency: one of its dependencies declares Node >= 22, which this
// project's engine-strict install refuses on Node 20; in its own folder, with engine-strict off, it
// installs, and it runs on Node 20 with node20-glob-sync.mjs loaded first. `.ci/run` calls this script.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CONFORMANCE_PACKAGE = '@modelcontextprotocol/conformance';
export const CONFORMANCE_VERSION = '0.2.0-alpha.12';
export const CONFORMANCE_DIR = fileURLToPath(new URL('../../.conformance/', import.meta.url));
const packageDir = join(CONFORMANCE_DIR, 'node_modules', ...CONFORMANCE_PACKAGE.split('/'));

/** The suite's CLI entry (`dist/index.js`) once installed. */
export const CONFORMANCE_CLI = join(packageDir, 'dist', 'index.js');

/** The installed suite's version, or `undefined` when it is not installed. */
export function installedVersion() {
  const manifest = join(packageDir, 'package.json');
  if (!existsSync(manifest)) return undefined;
  return JSON.parse(readFileSync(manifest, 'utf8')).version;
}

/** Installs the pinned suite into .conformance/ unless it is there already; throws with npm's output when npm fails. */
export function ensureConformance({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  if (installedVersion() === CONFORMANCE_VERSION && existsSync(CONFORMANCE_CLI)) return false;
  mkdirSync(CONFORMANCE_DIR, { recursive: true });
  writeFileSync(
    join(CONFORMANCE_DIR, 'package.json'),
    `${JSON.stringify({ name: 'conformance-suite', private: true }, null, 2)}\n`,
  );
  writeFileSync(join(CONFORMANCE_DIR, '.npmrc'), 'engine-strict=false\n');
  log(`[mcp-golden] installing ${CONFORMANCE_PACKAGE}@${CONFORMANCE_VERSION} into .conformance/`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(
    npm,
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--no-save',
      '--engine-strict=false',
      `${CONFORMANCE_PACKAGE}@${CONFORMANCE_VERSION}`,
    ],
    { cwd: CONFORMANCE_DIR, encoding: 'utf8' },
  );
  if (result.status !== 0 || installedVersion() !== CONFORMANCE_VERSION) {
    throw new Error(
      `[mcp-golden] could not install ${CONFORMANCE_PACKAGE}@${CONFORMANCE_VERSION} into .conformance/ (npm exit ${result.status}):\n${result.stderr || result.error?.message || ''}\nfix: npm install --prefix .conformance --engine-strict=false ${CONFORMANCE_PACKAGE}@${CONFORMANCE_VERSION}`,
    );
  }
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const installed = ensureConformance();
    process.stdout.write(
      `${CONFORMANCE_PACKAGE}@${CONFORMANCE_VERSION} ${installed ? 'installed' : 'already installed'} in .conformance/\n`,
    );
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
