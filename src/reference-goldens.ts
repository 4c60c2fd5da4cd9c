import type { RecordTarget } from './record/record-call.js';
import {
  loadStandardScenarios,
  type RecordGoldensOptions,
  type RecordGoldensResult,
  recordGoldens,
} from './record/record-goldens.js';
import type { Scenario, ScenarioServer } from './record/scenario.js';
import type { ReferenceServer } from './server/http-server.js';
import { referenceStdioCommand } from './server/reference-stdio-command.js';

/** Reference-server targets for scenarios, started on demand (one per set of server switches). */
export interface ReferenceTargets {
  /** The target for a scenario: the stdio command, or an HTTP server with the scenario's switches. */
  targetFor(scenario: Scenario): Promise<RecordTarget>;
  /** Stops every server started. */
  close(): Promise<void>;
}

const serverKey = (server: ScenarioServer | undefined): string =>
  JSON.stringify([
    server?.jsonResponse ?? false,
    server?.accelHeader ?? true,
    server?.keepAliveMs ?? 0,
    server?.failAtStep ?? 0,
  ]);

/** Starts reference servers as scenarios need them; `close()` stops them all. */
export function referenceTargets(): ReferenceTargets {
  const servers = new Map<string, Promise<ReferenceServer>>();
  return {
    async targetFor(scenario) {
      if (scenario.transport === 'stdio') return referenceStdioCommand();
      const key = serverKey(scenario.server);
      let server = servers.get(key);
      if (!server) {
        // Loaded here, not with the package: the reference server brings the MCP SDK's server side,
        // which a test file importing 'mcp-golden' to record or compare never needs.
        server = import('./server/http-server.js').then(({ startReferenceServer }) =>
          startReferenceServer({ ...scenario.server }),
        );
        servers.set(key, server);
      }
      return {
        url: (await server).url,
        label: `mcp-golden serve${scenario.server?.jsonResponse ? ' --json-response' : ''}${scenario.server?.failAtStep ? ` --fail-at-step ${scenario.server.failAtStep}` : ''}`,
      };
    },
    async close() {
      await Promise.allSettled([...servers.values()].map(async (s) => (await s).close()));
    },
  };
}

/** Options of {@link recordReferenceGoldens}: those of {@link recordGoldens} without the target. */
export type RecordReferenceGoldensOptions = Omit<RecordGoldensOptions, 'target' | 'scenarios'> & {
  /** The scenario list. @default the standard list shipped with mcp-golden */
  readonly scenarios?: readonly Scenario[];
};

/**
 * Regenerates goldens from the live reference server, started and stopped here: the composition
 * of "start the reference server" and "record a target".
 *
 * @example
 * await recordReferenceGoldens({ names: ['progress-10x100'] })
 */
export async function recordReferenceGoldens(
  options: RecordReferenceGoldensOptions = {},
): Promise<RecordGoldensResult> {
  const targets = referenceTargets();
  try {
    return await recordGoldens({
      ...options,
      scenarios: options.scenarios ?? (await loadStandardScenarios()),
      target: (scenario) => targets.targetFor(scenario),
      // Said in the header, so the golden's fix command is its scenario name alone.
      record: { ...options.record, notes: { ...options.record?.notes, reference: true } },
    });
  } finally {
    await targets.close();
  }
}
