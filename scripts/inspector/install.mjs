// Installs the MCP Inspector (its 2.12.0 release, whose `--cli` the tests drive as a real client) into
// .inspector/ (ignored by git), when it is missing or at another version. It is not a devDependency: it and
// two of its dependencies declare Node >= 22, which this project's engine-strict install refuses on Node 20;
// in its own folder, with engine-strict off, it installs, and its CLI runs on Node 20 (npm prints engine
// warnings, as `npx @modelcontextprotocol/inspector@2.12.0 --cli` does for a user). `.ci/run` calls this.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinnedInstall } from '../prefix-install.mjs';

export const INSPECTOR_PACKAGE = '@modelcontextprotocol/inspector';
export const INSPECTOR_VERSION = '2.12.0';
export const INSPECTOR_DIR = fileURLToPath(new URL('../../.inspector/', import.meta.url));
export const INSPECTOR_INSTALL_COMMAND = 'node scripts/inspector/install.mjs';

const inspector = pinnedInstall({
  dir: INSPECTOR_DIR,
  name: INSPECTOR_PACKAGE,
  version: INSPECTOR_VERSION,
  // The package's `mcp-inspector` bin: its launcher, which hands `--cli ...` to the CLI client.
  entry: (packageDir, manifest) => {
    const bin = manifest.bin?.['mcp-inspector'];
    return bin === undefined ? undefined : join(packageDir, bin);
  },
});

/** The installed Inspector's version, or `undefined` when it is not installed. */
export const installedVersion = inspector.version;

/**
 * The file `npx @modelcontextprotocol/inspector@2.12.0` runs: the package's `mcp-inspector` bin, or
 * `undefined` when it is not installed.
 */
export const inspectorBin = inspector.entryFile;

/** Installs the pinned Inspector into .inspector/ unless it is there already; throws with npm's output when npm fails. */
export const ensureInspector = inspector.ensure;

inspector.runAsScript(import.meta.url);
