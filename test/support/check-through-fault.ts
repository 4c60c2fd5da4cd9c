import { freePort } from '../../src/check/gateway-process.js';
import { type CheckOptions, runGatewayCheck } from '../../src/check/run-check.js';
import type { CheckReport } from '../../src/check/vocabulary.js';
import { type Fault, startFaultProxy } from './fault-proxy.js';

/** Every property of the default battery, in order. */
export const ALL_PROPERTIES = [
  'progress tokens (string)',
  'progress tokens (number)',
  'no progress without a token',
  'progress streams live (50 ms steps)',
  'progress streams live (500 ms steps)',
  'blocks: count and order',
  'unicode',
  'large output (50 x 64 KiB)',
  'Last-Event-ID resume',
  'large multibyte output (8 x 64 Ki chars)',
  'final progress back-to-back with the result',
  'cancellation (string id, after progress 2)',
  'cancellation (large numeric id, after progress 2)',
  'cancellation (no progress needed, after 300 ms)',
  'progress on the call stream (GET stream open)',
  'burst (200 notifications at once)',
  'slow reader (100 x 16 KiB notifications)',
  'concurrent calls without cross-talk',
  'SSE events keep their event: field',
  'each response delivered once (GET stream open)',
  'two clients, one progress token: each gets its own',
  'Content-Length matches a rewritten body',
  "Last-Event-ID never replays another session's events",
  // n/a without a second upstream replica ({upstream2}, --upstream2-port)
  'session affinity across two upstream replicas',
];

/** Runs the battery (or the `only` rows) through an in-repo fault proxy in front of the reference upstream. */
export async function checkThrough(
  fault: Fault,
  options: Pick<CheckOptions, 'only' | 'long' | 'clientEra' | 'upstreamEra' | 'requireBridge'> = {},
): Promise<CheckReport> {
  const upstreamPort = await freePort();
  const proxy = await startFaultProxy(`http://127.0.0.1:${upstreamPort}/mcp`, fault);
  try {
    return await runGatewayCheck({ gatewayUrl: proxy.url, upstreamPort, timeoutMs: 3000, ...options });
  } finally {
    await proxy.close();
  }
}

/** The properties that failed. */
export const failing = (report: CheckReport): string[] =>
  report.results.filter((r) => r.verdict === 'fail').map((r) => r.property);
