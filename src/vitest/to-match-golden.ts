import { dirname, relative } from 'node:path';
import { isGoldenError } from '../errors.js';
import { parseTranscript } from '../store/parse-golden.js';
import { PreparedGoldens } from '../store/prepared-goldens.js';
import { recordCommandOf } from '../store/record-command.js';
import { type CompareOptions, comparePrepared } from '../transcript/compare.js';
import { comparisonLines } from '../transcript/comparison-lines.js';
import { GOLDEN_FORMAT, type Transcript, type TranscriptHeader } from '../transcript/frame.js';
import { memberOf } from '../transcript/json-object.js';
import { keepRecordedTimes } from '../transcript/keep-recorded-times.js';
import { type PreparedTranscript, prepareTranscript } from '../transcript/prepared-transcript.js';
import { serializeTranscript } from '../transcript/serialize.js';
import type { VolatileOptions } from '../transcript/volatile.js';
import { getGoldenStore } from './active-golden-store.js';
import { callSite, claimGolden, nextUnnamedNumber, sharedModuleWarning } from './golden-claims.js';
import { isAdjacentGolden, resolveGoldenPath } from './golden-path.js';
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
    typeof value === 'object' && value !== null && 'header' in value && 'frames' in value && Array.isArray(value.frames)
  );
}

/** Who made a golden, which decides the command that regenerates it. */
type Origin =
  | { readonly by: 'matcher' }
  | { readonly by: 'record'; readonly scenario: string; readonly command: string };

function originOf(path: string, header: TranscriptHeader | undefined, root: string): Origin {
  const scenario = header?.scenario;
  const command = header && recordCommandOf(header, relative(root, dirname(path)) || '.');
  return scenario !== undefined && command !== undefined && !isAdjacentGolden(path)
    ? { by: 'record', scenario, command }
    : { by: 'matcher' };
}

/** The command that rewrites the golden: vitest -u with the test file, or `record` for a recorded scenario. */
function fixCommand(origin: Origin, testPath: string, root: string): string {
  return origin.by === 'record' ? origin.command : `npx vitest run ${relative(root, testPath)} -u`;
}

function formatOf(text: string): string {
  try {
    const end = text.indexOf('\n');
    const header: unknown = JSON.parse(end < 0 ? text : text.slice(0, end));
    const format = memberOf(header, 'format');
    return typeof format === 'string' ? format : 'an unknown format';
  } catch {
    return 'an unknown format';
  }
}

type Read = { readonly golden: PreparedTranscript } | { readonly missing: true } | { readonly unreadable: string };

/** Goldens read by this process, parsed and normalised once per distinct content. */
const preparedGoldens = new PreparedGoldens();

async function readStored(path: string, shown: string, regenerate: string): Promise<Read> {
  // Read as text, not bytes: bytes and then their text would be two copies of the file at once.
  const content = await getGoldenStore().read(path);
  if (content === undefined) return { missing: true };
  try {
    return {
      golden: preparedGoldens.get(content, (text) => parseTranscript(text, { source: shown, regenerate }), path),
    };
  } catch (error) {
    if (isGoldenError(error, 'E_GOLDEN_VERSION'))
      return {
        unreadable: `it is in format ${formatOf(content)}, which this version of mcp-golden does not read (it reads ${GOLDEN_FORMAT})`,
      };
    if (isGoldenError(error, 'E_GOLDEN_PARSE')) return { unreadable: error.message };
    throw error;
  }
}

async function write(path: string, received: Transcript, note: string): Promise<void> {
  await getGoldenStore().write(path, serializeTranscript(received));
  process.stderr.write(`[mcp-golden] ${note}\n`);
}

/**
 * `await expect(stream).toMatchGolden(name?, options?)`: compares a recorded transcript with its
 * golden after normalisation. A missing golden is written locally and fails in CI; `vitest -u`
 * rewrites a differing, corrupt or unknown-format golden (never one recorded by `mcp-golden record`:
 * that command regenerates it). Failures give a headline with numbers, the change set, a diff of
 * the canonical text of the first differing stream, and the command that fixes it. File access goes
 * through the golden store ({@link setGoldenStore}).
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
  const testName = this.currentTestName ?? 'golden';
  const shared = sharedModuleWarning(testPath, root);
  if (shared !== undefined) process.stderr.write(`[mcp-golden] ${shared}\n`);
  const number = name === undefined ? nextUnnamedNumber(testPath, testName) : 1;
  const path = resolveGoldenPath(name, testPath, testName, root, number);
  const shown = relative(root, path);
  const site = callSite(testPath, root);
  const earlier = claimGolden(testPath, testName, path, site);
  if (earlier !== undefined) {
    return {
      pass: false,
      message: () =>
        `[mcp-golden] test "${testName}" compares with golden "${shown}" twice: at ${earlier} and at ${site}. Give each toMatchGolden call in a test its own name, or leave them unnamed (they are numbered).`,
    };
  }
  const mode = resolveUpdateMode(this);
  const rewrite = fixCommand({ by: 'matcher' }, testPath, root);
  const stored = await readStored(path, shown, rewrite);
  if ('missing' in stored) {
    if (mode === 'none') {
      return {
        pass: false,
        message: () =>
          `[mcp-golden] golden "${shown}" is missing, and goldens are not written in CI. Run \`${rewrite}\` locally and commit ${shown}.`,
      };
    }
    await write(path, received, `wrote new golden ${shown}`);
    return { pass: !this.isNot, message: () => `[mcp-golden] wrote new golden "${shown}"` };
  }
  if ('unreadable' in stored) {
    if (mode === 'all' && !this.isNot) {
      await write(path, received, `rewrote unreadable golden ${shown}`);
      return { pass: true, message: () => `[mcp-golden] rewrote unreadable golden "${shown}"` };
    }
    return {
      pass: false,
      message: () =>
        `[mcp-golden] golden "${shown}" cannot be read: ${stored.unreadable.replace(/^\[mcp-golden\] /, '')}\nFix: run \`${rewrite}\` to rewrite it from this test, or restore it from git.`,
    };
  }
  const origin = originOf(path, stored.golden.header, root);
  const { ignore, mask, ...compare } = options;
  const comparison = comparePrepared(prepareTranscript(received), stored.golden, {
    timing: 'order',
    ...compare,
    ...((ignore !== undefined || mask !== undefined) && { volatile: { ignore: ignore ?? [], mask: mask ?? [] } }),
  });
  if (comparison.pass)
    return { pass: true, message: () => `[mcp-golden] transcript matches golden "${shown}" (${comparison.headline})` };
  if (mode === 'all' && !this.isNot && origin.by === 'matcher') {
    // Read again only on update: the prepared golden is normalised, and unchanged lines keep their bytes.
    const previous = await getGoldenStore().read(path);
    const tolerance = typeof options.timing === 'object' ? options.timing : undefined;
    const next =
      previous === undefined
        ? received
        : keepRecordedTimes(parseTranscript(previous, { source: shown }), received, tolerance);
    await write(path, next, `updated golden ${shown}: ${comparison.headline}`);
    return { pass: true, message: () => `[mcp-golden] updated golden "${shown}"` };
  }
  const lines = [`[mcp-golden] golden "${shown}" does not match: ${comparison.headline}`];
  lines.push(...comparisonLines(comparison, stored.golden.header, received.header));
  lines.push(
    origin.by === 'record'
      ? `Fix: this golden was recorded by \`mcp-golden record\` (scenario "${origin.scenario}"), so \`vitest -u\` does not rewrite it. If the change is intended, run \`${fixCommand(origin, testPath, root)}\`; otherwise fix the code under test.`
      : `Fix: if the change is intended, run \`${rewrite}\` to rewrite the golden; otherwise fix the code under test.`,
  );
  return {
    pass: false,
    message: () => lines.join('\n'),
    ...(comparison.expectedText !== '' && { expected: comparison.expectedText, actual: comparison.actualText }),
  };
}
