export const CONFORMANCE_PACKAGE: string;
export const CONFORMANCE_VERSION: string;
export const CONFORMANCE_DIR: string;
export const CONFORMANCE_CLI: string;
/** The installed suite's version, or `undefined` when it is not installed. */
export function installedVersion(): string | undefined;
/** Installs the pinned suite into .conformance/ unless it is there; returns whether it installed. */
export function ensureConformance(options?: { log?: (line: string) => void }): boolean;
