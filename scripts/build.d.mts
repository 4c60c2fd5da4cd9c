/** Builds dist/ (see build.mjs); with `ifStale`, only when its inputs changed. Resolves to whether it compiled. */
export function build(options?: { ifStale?: boolean }): Promise<boolean>;
/** SHA-256 (hex) of every input the build reads. */
export function inputsDigest(files?: readonly string[]): string;
