/** A release of the test server: what changed since `v1`. */
export type Release = 'v1' | 'text-changed' | 'lost-progress' | 'buffered' | 'breaking' | 'compatible' | 'removed';

/** Every release the server knows. */
export declare const RELEASES: readonly Release[];

/** Creates the low-level SDK server of one release. */
export declare function createReleaseServer(release: Release): unknown;

/** Serves one release over Streamable HTTP on 127.0.0.1, port 0. */
export declare function startReleaseServer(release: Release): Promise<{ url: string; close(): Promise<void> }>;
