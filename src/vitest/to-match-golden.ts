import { relative } from 'node:path';
import { isGoldenError } from '../errors.js';
import { readGolden, writeGolden } from '../store/golden-file.js';
import { type CompareOptions, compareTranscripts } from '../transcript/compare.js';
import type { Transcript } from '../transcript/frame.js';
import type { VolatileOptions } from '../transcript/volatile.js';
import { resolveGoldenPath } from './golden-path.js';
import { noteGoldenUsed } from './obsolete-goldens.js';
import { resolveUpdateMode } from './update-mode.js';

/**
 * Options of `toMatchGolden`: `ignore` (JSONPaths) and `mask` (patterns, `iso-time`, `uuid`) leave
 * volatile values out of the comparison, as `mcp-golden verify` does.
 */
export interface MatchGoldenOptions extends Pick<CompareOptions, 'bytes' | 'timing'>, VolatileOptions {}

/** The matcher context vitest passes (the parts used here). */
export interface GoldenMatcherContext {
  readonly isNot: boolean;
  readonly testPath?: string | undefined;
  readonly currentTestName?: string | undefined;
}

/** What a matcher returns to vitest. */
export interface MatcherResult {
  pass: boolean;
  message: () => string;
  actual?: unknown;
  expected?: unknown;
}

/** True for a {@link Transcript}-shaped value. */
export function isTranscript(value: unknown): value is Transcript {
  return (
    typeof value === 'object' &&
    value !== null &&
    'header' in value &&
    'frames' in value &&
    Array.isArray((value as { frames: unknown }).frames)
  );
}

function fixCommand(path: string, testPath: string, root: string): string {
  const standard = relative(root, path).startsWith('goldens/');
  const name =
    path
      .split('/')
      .pop()
      ?.replace(/\.jsonl$/, '') ?? '';
  const vitest = `npx vitest run ${relative(root, testPath)} -u`;
  return standard ? `${vitest} (or \`npx mcp-golden record ${name}\` for a standard golden)` : vitest;
}

/**
 * `await expect(stream).toMatchGolden(name?, options?)`: compares a recorded transcript with its
 * golden after normalisation. A missing golden is written locally and fails in CI; `vitest -u`
 * rewrites a differing golden. Failures give a headline with numbers, the change set, a diff of the
 * canonical text of the first differing stream, and the command that fixes it.
 */
export async function toMatchGolden(
  this: GoldenMatcherContext,
  received: unknown,
  nameOrOptions?: string | MatchGoldenOptions,
  maybeOptions?: MatchGoldenOptions,
): Promise<MatcherResult> {
  const name = typeof nameOrOptions === 'string' ? nameOrOptions : undefined;
  const options = (typeof nameOrOptions === 'object' ? nameOrOptions : maybeOptions) ?? {};
  if (!isTranscript(received)) {
    return {
      pass: false,
      message: () =>
        `[mcp-golden] toMatchGolden expects a transcript (from recordCall or readGolden), got ${typeof received}.`,
    };
  }
  const root = process.cwd();
  const testPath = this.testPath ?? `${root}/unknown.test.ts`;
  const path = resolveGoldenPath(name, testPath, this.currentTestName ?? 'golden', root);
  noteGoldenUsed(path);
  const mode = resolveUpdateMode(this);
  const shown = relative(root, path);
  let golden: Transcript;
  try {
    golden = await readGolden(path);
  } catch (error) {
    if (!isGoldenError(error, 'E_GOLDEN_MISSING')) throw error;
    if (mode === 'none') {
      return {
        pass: false,
        message: () =>
          `[mcp-golden] golden "${shown}" is missing, and goldens are not written in CI. Run \`${fixCommand(path, testPath, root)}\` locally and commit ${shown}.`,
      };
    }
    await writeGolden(path, received);
    process.stderr.write(`[mcp-golden] wrote new golden ${shown}\n`);
    return { pass: !this.isNot, message: () => `[mcp-golden] wrote new golden "${shown}"` };
  }
  const { ignore, mask, ...compare } = options;
  const comparison = compareTranscripts(received, golden, {
    timing: 'order',
    ...compare,
    ...((ignore !== undefined || mask !== undefined) && { volatile: { ignore: ignore ?? [], mask: mask ?? [] } }),
  });
  if (comparison.pass)
    return { pass: true, message: () => `[mcp-golden] transcript matches golden "${shown}" (${comparison.headline})` };
  if (mode === 'all' && !this.isNot) {
    await writeGolden(path, received);
    process.stderr.write(`[mcp-golden] updated golden ${shown}: ${comparison.headline}\n`);
    return { pass: true, message: () => `[mcp-golden] updated golden "${shown}"` };
  }
  const lines = [`[mcp-golden] golden "${shown}" does not match: ${comparison.headline}`];
  if (comparison.changes.length > 0) lines.push('Changes:', ...comparison.changes.map((c) => `  ${c}`));
  if (comparison.timing.length > 0) lines.push('Timing:', ...comparison.timing.slice(0, 10).map((c) => `  ${c}`));
  lines.push(
    `Fix: if the change is intended, run \`${fixCommand(path, testPath, root)}\` to rewrite the golden; otherwise fix the code under test.`,
  );
  return {
    pass: false,
    message: () => lines.join('\n'),
    ...(comparison.expectedText !== '' && { expected: comparison.expectedText, actual: comparison.actualText }),
  };
}
