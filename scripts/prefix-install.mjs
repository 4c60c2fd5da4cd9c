// Installs one pinned npm package into a folder of its own (ignored by git), when it is missing or at
// another version: the way third-party tools that declare Node >= 22 (the conformance suite, the MCP
// Inspector 2.12.0) are installed beside this project's engine-strict install on Node 20. Used by
// scripts/conformance/install.mjs and scripts/inspector/install.mjs, which `.ci/run` calls.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A package pinned to a folder: `dir` (absolute), `name`, `version`; `entry(packageDir, manifest)` the file
 * that must exist once installed (undefined when the manifest does not name one).
 */
export function pinnedInstall({ dir, name, version, entry }) {
  const packageDir = join(dir, 'node_modules', ...name.split('/'));
  const folder = `${basename(dir)}/`;
  const manifest = () => {
    const path = join(packageDir, 'package.json');
    return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
  };
  const entryFile = () => {
    const found = manifest();
    return found === undefined ? undefined : entry(packageDir, found);
  };
  const installed = () => {
    const file = entryFile();
    return manifest()?.version === version && file !== undefined && existsSync(file);
  };
  /** Installs unless it is there already; returns whether it installed; throws with npm's output when npm fails. */
  const ensure = ({ log = (line) => process.stderr.write(`${line}\n`) } = {}) => {
    if (installed()) return false;
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: basename(dir).replace(/^\./, ''), private: true }, null, 2)}\n`,
    );
    writeFileSync(join(dir, '.npmrc'), 'engine-strict=false\n');
    log(`[mcp-golden] installing ${name}@${version} into ${folder}`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const args = ['install', '--no-audit', '--no-fund', '--no-save', '--engine-strict=false', `${name}@${version}`];
    const result = spawnSync(npm, args, { cwd: dir, encoding: 'utf8' });
    if (result.status !== 0 || !installed()) {
      throw new Error(
        `[mcp-golden] could not install ${name}@${version} into ${folder} (npm exit ${result.status}):\n${result.stderr || result.error?.message || ''}\nfix: npm install --prefix ${basename(dir)} --no-save --engine-strict=false ${name}@${version}`,
      );
    }
    return true;
  };
  /** Runs `ensure` when `moduleUrl` is the script node was started with, printing what it did. */
  const runAsScript = (moduleUrl, ensureFn = ensure) => {
    if (process.argv[1] !== fileURLToPath(moduleUrl)) return;
    try {
      const did = ensureFn();
      process.stdout.write(`${name}@${version} ${did ? 'installed' : 'already installed'} in ${folder}\n`);
    } catch (error) {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    }
  };
  return { packageDir, version: () => manifest()?.version, entryFile, ensure, runAsScript };
}
