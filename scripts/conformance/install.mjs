// Installs the official MCP conformance suite into .conformance/ (ignored by git), when it is missing or
// at another version. It is not a devDependency: one of its dependencies declares Node >= 22, which this
// project's engine-strict install refuses on Node 20; in its own folder, with engine-strict off, it
// installs, and it runs on Node 20 with node20-glob-sync.mjs loaded first. `.ci/run` calls this script.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinnedInstall } from '../prefix-install.mjs';

export const CONFORMANCE_PACKAGE = '@modelcontextprotocol/conformance';
export const CONFORMANCE_VERSION = '0.2.0-alpha.12';
export const CONFORMANCE_DIR = fileURLToPath(new URL('../../.conformance/', import.meta.url));

const suite = pinnedInstall({
  dir: CONFORMANCE_DIR,
  name: CONFORMANCE_PACKAGE,
  version: CONFORMANCE_VERSION,
  entry: (packageDir) => join(packageDir, 'dist', 'index.js'),
});

/** The suite's CLI entry (`dist/index.js`) once installed. */
export const CONFORMANCE_CLI = join(suite.packageDir, 'dist', 'index.js');

/** The installed suite's version, or `undefined` when it is not installed. */
export const installedVersion = suite.version;

/** Installs the pinned suite into .conformance/ unless it is there already; throws with npm's output when npm fails. */
export const ensureConformance = suite.ensure;

suite.runAsScript(import.meta.url);
