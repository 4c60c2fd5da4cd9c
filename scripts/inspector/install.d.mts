export const INSPECTOR_PACKAGE: string;
export const INSPECTOR_VERSION: string;
export const INSPECTOR_DIR: string;
/** The command that installs the pinned Inspector into .inspector/. */
export const INSPECTOR_INSTALL_COMMAND: string;
/** The installed Inspector's version, or `undefined` when it is not installed. */
export function installedVersion(): string | undefined;
/** The installed package's `mcp-inspector` bin (what `npx @modelcontextprotocol/inspector@2.12.0` runs), or `undefined`. */
export function inspectorBin(): string | undefined;
/** Installs the pinned Inspector into .inspector/ unless it is there; returns whether it installed. */
export function ensureInspector(options?: { log?: (line: string) => void }): boolean;
