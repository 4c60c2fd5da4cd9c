// Replay under concurrency: many sessions of a recorded call at once.
import { callView } from '../../dist/check/index.js';
import { createReplayServer, recordCall } from '../../dist/index.js';
import { startReferenceServer } from '../../dist/server/index.js';
import { fmt, median, quantile } from './kit.mjs';

/** Adds the concurrent-sessions rows. */
export async function run(rows) {
  const server = await startReferenceServer();
  const golden = await recordCall(server.url, { tool: 'chatty', requestId: 1 });
  await server.close();
  const replay = await createReplayServer(golden);
  try {
    const runs = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        recordCall(replay.url, { tool: 'chatty', requestId: i + 1, timeoutMs: 60_000 }),
      ),
    );
    const latencies = runs.map((run) => callView(run).response?.atMs ?? Number.POSITIVE_INFINITY);
    rows.add({
      figure: '200 concurrent chatty sessions, tools/call latency p99',
      samples: quantile(latencies, 0.99),
      unit: 'ms',
      target: { op: '<', value: 50 },
      note: `p50 ${fmt(median(latencies), 'ms')}, unmatched ${replay.report().unmatched.length}`,
    });
  } finally {
    await replay.close();
  }
}
