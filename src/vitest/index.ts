// The side-effect import survives into the emitted index.d.ts (a type-only use of vitest would be
// elided), so a consumer's compiler loads vitest's own declarations before the augmentation below
// and merges it, instead of reading `declare module 'vitest'` as the whole module.
import 'vitest';
import { afterAll, beforeEach, expect } from 'vitest';
import type { LintOptions } from '../lint/lint-transcript.js';
import type { Transcript } from '../transcript/frame.js';
import type { TimingTolerance } from '../transcript/timing-tolerance.js';
import { resetTestClaims } from './golden-claims.js';
import {
  toForwardFaithfully,
  toPreserveBlocks,
  toPreserveProgressTokens,
  toPreserveUnicode,
  toStreamProgressively,
} from './invariant-matchers.js';
import { reportObsoleteGoldens, type TaskLike } from './obsolete-goldens.js';
import { toFollowProgressContract } from './to-follow-progress-contract.js';
import { type MatchGoldenOptions, toMatchGolden } from './to-match-golden.js';
import { resolveUpdateMode } from './update-mode.js';

expect.extend({
  toMatchGolden,
  toPreserveProgressTokens,
  toPreserveBlocks,
  toPreserveUnicode,
  toStreamProgressively,
  toForwardFaithfully,
  toFollowProgressContract,
});

// Numbering of unnamed goldens and duplicate detection start afresh with each attempt of a test.
beforeEach(({ task }) => {
  resetTestClaims(task.file.filepath, task.fullTestName);
});

// Each test file that imports this module (directly or through setupFiles) reports the goldens
// in its own __goldens__ folder that none of its tests used, once all of them ran.
// biome-ignore lint/correctness/noEmptyPattern: vitest requires the fixture context to be destructured
afterAll(async ({}, suite) => {
  await reportObsoleteGoldens(suite as unknown as TaskLike, resolveUpdateMode(expect.getState()));
});

/** The matchers `mcp-golden/vitest` adds to `expect`. */
export interface GoldenMatchers<R = unknown> {
  /** Compares a recorded transcript with its golden (written when missing locally; `-u` rewrites). */
  toMatchGolden(name?: string, options?: MatchGoldenOptions): Promise<R>;
  toMatchGolden(options: MatchGoldenOptions): Promise<R>;
  /** Tokens echoed with value and JSON type, no progress without a token, none after the result or cancel. */
  toPreserveProgressTokens(reference?: Transcript): R;
  /** Result blocks in count and order, byte-identical, not truncated. */
  toPreserveBlocks(reference: Transcript): R;
  /** Non-ASCII text byte-identical. */
  toPreserveUnicode(reference: Transcript): R;
  /** Progress arrives live: gaps within tolerance of the reference's, not bunched, not one read. */
  toStreamProgressively(reference: Transcript, tolerance?: TimingTolerance): R;
  /** Every invariant above. */
  toForwardFaithfully(reference: Transcript, tolerance?: TimingTolerance): R;
  /** A recorded server follows the progress contract (the `mcp-golden lint` rules); one message per violation. */
  toFollowProgressContract(options?: LintOptions): R;
}

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: the signature must match vitest's own declaration
  interface Assertion<T = any> extends GoldenMatchers<void> {}
}

export type { LintOptions } from '../lint/lint-transcript.js';
export { fileGoldenStore, type GoldenStore } from '../store/golden-store.js';
export type { TimingTolerance } from '../transcript/timing-tolerance.js';
export { getGoldenStore, setGoldenStore } from './active-golden-store.js';
export type { MatchGoldenOptions } from './to-match-golden.js';
export type {
  GoldenEndpoint,
  HttpGoldenEndpoint,
  StdioGoldenEndpoint,
  UseGoldenOptions,
  UseGoldenTarget,
} from './use-golden.js';
export { useGolden } from './use-golden.js';
