import fc from 'fast-check';
import { forwardsFaithfully } from '../invariants/invariants.js';
import { type Recording, recordCall } from '../record/record-call.js';
import type { Scenario } from '../record/scenario.js';
import type { ChunkingOptions } from '../replay/chunking.js';
import { createReplayServer } from '../replay/replay-server.js';
import { type ReferenceServer, startReferenceServer } from '../server/http-server.js';
import { writeGolden } from '../store/golden-file.js';
import type { Transcript } from '../transcript/frame.js';
import type { TimingTolerance } from '../transcript/timing-tolerance.js';
import { type ArgumentBounds, chunking as chunkingArbitrary, scenario as scenarioArbitrary } from './arbitraries.js';

/** A gateway the property starts in front of an upstream URL, and stops after each run. */
export interface StartedGateway {
  /** The gateway's MCP endpoint. */
  readonly url: string;
  close(): Promise<void>;
}

/** Options of {@link gatewayProperty}. */
export interface GatewayPropertyOptions {
  /** Bounds of generated tool arguments. */
  readonly bounds?: ArgumentBounds;
  /** Re-chunk the upstream's SSE adversarially (generated). @default true */
  readonly chunking?: boolean;
  /** Timing tolerance of the streaming check. @default relGap 1, absMs 100: lenient, property runs are many */
  readonly tolerance?: TimingTolerance;
  /** Write the received transcript of every failing run here; the last one written is the shrunk counterexample. */
  readonly saveCounterexampleTo?: string;
  /** Longest wait for any message. @default 10000 */
  readonly timeoutMs?: number;
}

/** Saves a transcript (a shrunk counterexample) as a golden that replays and inspects like any other. */
export function saveCounterexample(path: string, transcript: Transcript): Promise<void> {
  return writeGolden(path, transcript);
}

/**
 * A fast-check property: for each generated scenario (tool, arguments, token, request id) and
 * chunking, the scenario is recorded against the live reference server, that recording is served by
 * the replayer (re-chunked), `startGateway` puts the gateway in front of it, and the same scenario
 * through the gateway must keep every invariant (tokens, blocks, unicode, streaming).
 *
 * @example
 * await fc.assert(gatewayProperty(async (upstream) => startMyGateway(upstream)), { numRuns: 20 })
 */
export function gatewayProperty(
  startGateway: (upstreamUrl: string) => Promise<StartedGateway>,
  options: GatewayPropertyOptions = {},
): fc.IAsyncPropertyWithHooks<[Scenario, ChunkingOptions]> {
  let reference: ReferenceServer | undefined;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const tolerance = options.tolerance ?? { relGap: 1, absMs: 100 };
  const chunkings = options.chunking === false ? fc.constant({}) : chunkingArbitrary();
  return fc
    .asyncProperty(scenarioArbitrary(options.bounds), chunkings, async (scenario, chunking) => {
      reference ??= await startReferenceServer();
      const timed = { ...scenario, timeoutMs };
      const golden = await recordCall(reference.url, timed);
      const upstream = await createReplayServer(golden, { chunking });
      let received: Recording | undefined;
      try {
        const gateway = await startGateway(upstream.url);
        try {
          received = await recordCall(gateway.url, timed);
        } finally {
          await gateway.close();
        }
      } finally {
        await upstream.close();
      }
      const failures = forwardsFaithfully(received, golden, tolerance).filter((r) => !r.pass);
      if (failures.length > 0) {
        if (options.saveCounterexampleTo) await saveCounterexample(options.saveCounterexampleTo, received);
        throw new Error(failures.map((f) => `${f.property}: ${f.evidence}`).join('\n'));
      }
    })
    .afterEach(async () => {
      await reference?.close();
      reference = undefined;
    });
}
