// Replay pacing: how close the replayer's arrivals are to the recorded offsets, beside the live server.
import { callView } from '../../dist/check/index.js';
import { createReplayServer, recordCall } from '../../dist/index.js';
import { startReferenceServer } from '../../dist/server/index.js';
import { rawProgressArrivals } from './http-client.mjs';
import { fmt, median, quantile } from './kit.mjs';

/** Adds the pacing rows. */
export async function run(rows) {
  const server = await startReferenceServer();
  try {
    const golden = await recordCall(server.url, {
      tool: 'progress',
      arguments: { steps: 100, step_ms: 10 },
      progressToken: 'bench',
      requestId: 1,
    });
    const replay = await createReplayServer(golden);
    try {
      const recorded = callView(golden).progress.map((p) => p.atMs);
      const offsetErrors = [];
      const gapErrors = [];
      const liveGapErrors = [];
      const startLatency = [];
      // Live and replayed runs interleaved, so both see the same machine load.
      for (let run = 0; run < 3; run++) {
        const live = await rawProgressArrivals(server.url, 100, 10);
        liveGapErrors.push(...live.slice(1).map((t, i) => Math.abs(t - live[i] - 10)));
        const got = await rawProgressArrivals(replay.url, 100, 10);
        // Offsets measured from the stream's first notification, so the constant request latency
        // (reported on its own) does not count as pacing error.
        for (const [i, t] of got.entries()) {
          offsetErrors.push(Math.abs(t - got[0] - (recorded[i] - recorded[0])));
          if (i > 0) gapErrors.push(Math.abs(t - got[i - 1] - (recorded[i] - recorded[i - 1])));
        }
        startLatency.push(got[0] - recorded[0]);
      }
      rows.add({
        figure: 'replay pacing: |arrival - recorded offset| p50 (100 x 10 ms, 1x)',
        samples: median(offsetErrors),
        unit: 'ms',
        target: { op: '<=', value: 2 },
        note: '300 frames on node:http socket reads',
      });
      rows.add({
        figure: 'replay pacing: |arrival - recorded offset| p99',
        samples: quantile(offsetErrors, 0.99),
        unit: 'ms',
        target: { op: '<=', value: 2 },
        note: `max ${fmt(Math.max(...offsetErrors), 'ms')}`,
      });
      const liveP99 = quantile(liveGapErrors, 0.99);
      rows.add({
        figure: 'replay gap error p99 vs the live server',
        samples: quantile(gapErrors, 0.99),
        unit: 'ms',
        target: { op: '<=', value: 5 },
        peer: { name: 'live server', samples: liveP99 },
        note: `live gap error p50 ${fmt(median(liveGapErrors), 'ms')}`,
      });
      rows.add({
        figure: 'replay first-notification latency vs recording',
        samples: startLatency,
        unit: 'ms',
        target: { op: '<=', value: 5 },
        note: 'constant request latency, not pacing',
      });
    } finally {
      await replay.close();
    }
  } finally {
    await server.close();
  }
}
