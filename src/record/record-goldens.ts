import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GoldenError, suggest } from '../errors.js';
import { GOLDEN_EXTENSION } from '../store/golden-file.js';
import { rewriteGolden } from '../store/rewrite-golden.js';
import { type RecordOptions, type RecordTarget, recordCall } from './record-call.js';
import { parseScenarioList, type Scenario } from './scenario.js';

/**
 * Where each scenario is recorded: one target for all, or a function picking (and perhaps
 * starting) a target per scenario.
 */
export type GoldenTarget = RecordTarget | ((scenario: Scenario) => RecordTarget | Promise<RecordTarget>);

/** Options of {@link recordGoldens}. */
export interface RecordGoldensOptions {
  /** The server every scenario is recorded against. */
  readonly target: GoldenTarget;
  /** Directory the goldens are written to. @default 'goldens' */
  readonly outDir?: string;
  /** Scenario names to record; all when empty. @default [] */
  readonly names?: readonly string[];
  /** The scenario list. */
  readonly scenarios: readonly Scenario[];
  /** Passed to every {@link recordCall}. @default {} */
  readonly record?: RecordOptions;
  /** Called after each golden is written (in the order they finish). */
  readonly onRecorded?: (result: RecordedGolden) => void;
  /**
   * Scenarios recorded at once. Each is its own session; recorded offsets stay faithful while the
   * server and this process keep up with the calls in flight. After a failure no further scenario
   * starts, those in flight finish, and the first error is thrown. @default 1
   */
  readonly concurrency?: number;
}

/** One golden written by {@link recordGoldens}. */
export interface RecordedGolden {
  readonly name: string;
  readonly path: string;
  readonly frames: number;
  readonly bytes: number;
  readonly ms: number;
}

/** What {@link recordGoldens} did. */
export interface RecordGoldensResult {
  readonly recorded: readonly RecordedGolden[];
  /** Goldens in the directory that no scenario produces (reported, never deleted). */
  readonly obsolete: readonly string[];
}

/** The standard scenario list: every reference tool with default, small, maximal and edge arguments (data only). */
export async function loadStandardScenarios(): Promise<Scenario[]> {
  // By way of ../record/: the same file from src/record/, dist/record/ and the bundled bin's chunks in dist/bin/.
  const url = new URL('../record/standard-scenarios.json', import.meta.url);
  return parseScenarioList(JSON.parse(await readFile(url, 'utf8')), 'the standard scenario list');
}

/** Reads a scenario list from a JSON file, with errors naming the file. */
export async function loadScenarioFile(path: string): Promise<Scenario[]> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new GoldenError(
      'E_SCENARIO',
      `Cannot read scenario list "${path}": ${(error as Error).message}. It must be a JSON array of scenarios.`,
    );
  }
  return parseScenarioList(value, path);
}

/** The scenarios named, in the order named (all of them when no name is given); an unknown name is an error listing the known ones. */
export function selectScenarios(scenarios: readonly Scenario[], names: readonly string[]): Scenario[] {
  if (names.length === 0) return [...scenarios];
  const byName = new Map(scenarios.map((s) => [s.name, s]));
  return names.map((name) => {
    const scenario = byName.get(name);
    if (!scenario) {
      const names = scenarios.flatMap((s) => (s.name === undefined ? [] : [s.name]));
      const near = suggest(name, names);
      throw new GoldenError(
        'E_SCENARIO',
        `Unknown scenario "${name}".${near ? ` Did you mean ${near}?` : ''} Known scenarios: ${names.join(', ')}.`,
      );
    }
    return scenario;
  });
}

/**
 * Records goldens from a live server: one file per scenario, each written atomically; errors are
 * thrown, never written as goldens. Goldens in `outDir` that no scenario produces are reported.
 *
 * @example
 * await recordGoldens({ target: { command: 'node', args: ['server.js'] }, scenarios, outDir: 'goldens' })
 */
export async function recordGoldens(options: RecordGoldensOptions): Promise<RecordGoldensResult> {
  const outDir = options.outDir ?? 'goldens';
  const chosen = selectScenarios(options.scenarios, options.names ?? []);
  const concurrency = options.concurrency ?? 1;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new GoldenError('E_USAGE', `concurrency must be a whole number of at least 1, got ${concurrency}.`);
  }
  const recordOne = async (scenario: Scenario): Promise<RecordedGolden> => {
    const started = performance.now();
    const target = typeof options.target === 'function' ? await options.target(scenario) : options.target;
    const transcript = await recordCall(target, scenario, options.record);
    const name = scenario.name ?? scenario.tool;
    const path = join(outDir, `${name}${GOLDEN_EXTENSION}`);
    await rewriteGolden(path, transcript);
    const result: RecordedGolden = {
      name,
      path,
      frames: transcript.frames.length,
      bytes: transcript.frames.reduce((n, f) => n + (f.raw?.length ?? 0), 0),
      ms: Math.round(performance.now() - started),
    };
    options.onRecorded?.(result);
    return result;
  };
  // Lanes take the next scenario in list order; the results keep that order whatever finishes first.
  const recorded: RecordedGolden[] = [];
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (!failure && next < chosen.length) {
      const index = next++;
      try {
        recorded[index] = await recordOne(chosen[index] as Scenario);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, chosen.length) }, lane));
  if (failure) throw failure.error;
  const listed = new Set(options.scenarios.map((s) => `${s.name}${GOLDEN_EXTENSION}`));
  const present = await readdir(outDir).catch(() => [] as string[]);
  const obsolete = present
    .filter((file) => file.endsWith(GOLDEN_EXTENSION) && !listed.has(file))
    .map((f) => join(outDir, f));
  return { recorded, obsolete };
}
