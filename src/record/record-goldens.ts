import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GoldenError } from '../errors.js';
import { startReferenceServer } from '../server/http-server.js';
import type { ReferenceServer } from '../server/index.js';
import { GOLDEN_EXTENSION, writeGolden } from '../store/golden-file.js';
import { recordCall } from './record-call.js';
import { referenceStdioCommand } from './reference-stdio-command.js';
import { parseScenarioList, type Scenario, type ScenarioServer } from './scenario.js';

/** Options of {@link recordGoldens}. */
export interface RecordGoldensOptions {
  /** Directory the goldens are written to. @default 'goldens' */
  readonly outDir?: string;
  /** Scenario names to record; all when empty. @default [] */
  readonly names?: readonly string[];
  /** The scenario list. @default the standard list shipped with mcp-golden */
  readonly scenarios?: readonly Scenario[];
  /** Called after each golden is written. */
  readonly onRecorded?: (result: RecordedGolden) => void;
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

/** The standard scenario list: every reference tool with default, small, maximal and edge arguments. */
export async function loadStandardScenarios(): Promise<Scenario[]> {
  const url = new URL('./standard-scenarios.json', import.meta.url);
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

function select(scenarios: readonly Scenario[], names: readonly string[]): Scenario[] {
  if (names.length === 0) return [...scenarios];
  const byName = new Map(scenarios.map((s) => [s.name, s]));
  return names.map((name) => {
    const scenario = byName.get(name);
    if (!scenario) {
      const known = scenarios.map((s) => s.name).join(', ');
      throw new GoldenError('E_SCENARIO', `Unknown scenario "${name}". Known scenarios: ${known}.`);
    }
    return scenario;
  });
}

const serverKey = (server: ScenarioServer | undefined): string =>
  JSON.stringify([
    server?.jsonResponse ?? false,
    server?.accelHeader ?? true,
    server?.keepAliveMs ?? 0,
    server?.failAtStep ?? 0,
  ]);

/**
 * Regenerates goldens from the live reference server: one file per scenario, each written
 * atomically. Servers are started in process (HTTP) or as a child process (stdio) and stopped
 * before this returns.
 *
 * @example
 * await recordGoldens({ names: ['progress-10x100'] })
 */
export async function recordGoldens(options: RecordGoldensOptions = {}): Promise<RecordGoldensResult> {
  const outDir = options.outDir ?? 'goldens';
  const all = options.scenarios ?? (await loadStandardScenarios());
  const chosen = select(all, options.names ?? []);
  const servers = new Map<string, ReferenceServer>();
  const recorded: RecordedGolden[] = [];
  try {
    for (const scenario of chosen) {
      const started = performance.now();
      let target: Parameters<typeof recordCall>[0];
      if (scenario.transport === 'stdio') {
        target = referenceStdioCommand();
      } else {
        const key = serverKey(scenario.server);
        let server = servers.get(key);
        if (!server) {
          server = await startReferenceServer({ ...scenario.server });
          servers.set(key, server);
        }
        target = {
          url: server.url,
          label: `mcp-golden serve${scenario.server?.jsonResponse ? ' --json-response' : ''}${scenario.server?.failAtStep ? ` --fail-at-step ${scenario.server.failAtStep}` : ''}`,
        };
      }
      const transcript = await recordCall(target, scenario);
      const name = scenario.name ?? scenario.tool;
      const path = join(outDir, `${name}${GOLDEN_EXTENSION}`);
      await writeGolden(path, transcript);
      const result: RecordedGolden = {
        name,
        path,
        frames: transcript.frames.length,
        bytes: transcript.frames.reduce((n, f) => n + (f.raw?.length ?? 0), 0),
        ms: Math.round(performance.now() - started),
      };
      recorded.push(result);
      options.onRecorded?.(result);
    }
  } finally {
    await Promise.allSettled([...servers.values()].map((s) => s.close()));
  }
  const listed = new Set(all.map((s) => `${s.name}${GOLDEN_EXTENSION}`));
  const present = await readdir(outDir).catch(() => [] as string[]);
  const obsolete = present
    .filter((file) => file.endsWith(GOLDEN_EXTENSION) && !listed.has(file))
    .map((f) => join(outDir, f));
  return { recorded, obsolete };
}
