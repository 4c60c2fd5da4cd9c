/** A package pinned to a folder of its own, installed with engine-strict off. */
export interface PinnedInstall {
  readonly packageDir: string;
  /** The installed version, or `undefined` when it is not installed. */
  version(): string | undefined;
  /** The entry file the manifest names, or `undefined` when it is not installed. */
  entryFile(): string | undefined;
  /** Installs unless it is there already; returns whether it installed. */
  ensure(options?: { log?: (line: string) => void }): boolean;
  /** Runs `ensure` when `moduleUrl` is the script node was started with. */
  runAsScript(moduleUrl: string): void;
}
export function pinnedInstall(options: {
  dir: string;
  name: string;
  version: string;
  entry: (packageDir: string, manifest: { bin?: Record<string, string> }) => string | undefined;
}): PinnedInstall;
