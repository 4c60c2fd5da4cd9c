import { freePort } from '../../src/check/gateway-process.js';
import { type CheckReport, runGatewayCheck } from '../../src/check/run-check.js';
import { type Fault, startFaultProxy } from './fault-proxy.js';

/** Every property of the battery, in order. */
export const ALL_PROPERTIES = [
  'progress tokens (string)',
  'progress tokens (number)',
  'no progress without a token',
  'progress streams live (50 ms steps)',
  'progress streams live (500 ms steps)',
  'blocks: count and order',
  'unicode',
  'large output (50 x 64 KiB)',
  'cancellation reaches the upstream, nothing after it',
  'Last-Event-ID resume',
  'concurrent calls without cross-talk',
];

/** Runs the whole battery through an in-repo fault proxy in front of the reference upstream. */
export async function checkThrough(fault: Fault): Promise<CheckReport> {
  const upstreamPort = await freePort();
  const proxy = await startFaultProxy(`http://127.0.0.1:${upstreamPort}/mcp`, fault);
  try {
    return await runGatewayCheck({ gatewayUrl: proxy.url, upstreamPort, timeoutMs: 3000 });
  } finally {
    await proxy.close();
  }
}

/** The properties that failed. */
export const failing = (report: CheckReport): string[] =>
  report.results.filter((r) => r.verdict === 'fail').map((r) => r.property);
