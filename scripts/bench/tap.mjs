// Recording overhead: the fetch tap against the same wire driver with the plain fetch (the direct
// call), and the recording proxy's added latency per frame.
import { recordCall } from '../../dist/index.js';
import { openHttpSession } from '../../dist/record/http-wire-session.js';
import { startRecordingProxy } from '../../dist/record/index.js';
import { runScenario } from '../../dist/record/run-scenario.js';
import { startReferenceServer } from '../../dist/server/index.js';
import { fmt, interleaved, median, quantile } from './kit.mjs';

/** Adds the tap and proxy rows. */
export async function run(rows) {
  const server = await startReferenceServer();
  try {
    // A long_output call of ~25 ms varies by a fifth from run to run (GC, the server in this process):
    // 41 interleaved runs keep its median's noise well under the 5 % the target allows.
    for (const [label, scenario, runs] of [
      ['long_output 50 x 65536', { tool: 'long_output', arguments: { blocks: 50, chars: 65536 } }, 41],
      ['progress 100 x 1 ms', { tool: 'progress', arguments: { steps: 100, step_ms: 1 }, progressToken: 'p' }, 15],
    ]) {
      // The direct call: the same wire driver with the plain fetch; the only difference is the tap.
      const samples = await interleaved(
        {
          direct: () => runScenario(openHttpSession(server.url, { fetch, protocolVersion: '2025-11-25' }), scenario),
          tapped: () => recordCall(server.url, scenario),
        },
        { runs, warmup: 2 },
      );
      const direct = median(samples.direct);
      rows.add({
        figure: `fetch tap wall time, ${label}`,
        samples: samples.tapped,
        unit: 'ms',
        target: { op: '<=', value: direct * 1.05, extra: ' (direct +5%)' },
        peer: { name: 'direct call', samples: samples.direct },
      });
    }
    const proxy = await startRecordingProxy({ upstream: server.url });
    try {
      const client = await recordCall(proxy.url, {
        tool: 'progress',
        arguments: { steps: 100, step_ms: 10 },
        progressToken: 'proxy',
      });
      const progressAt = (t, origin) =>
        t.frames
          .filter((f) => f.dir === 'server->client' && f.raw?.includes('notifications/progress'))
          .map((f) => origin + f.t / 1000);
      const fromUpstream = progressAt(proxy.transcript(), proxy.originEpochMs);
      const atClient = progressAt(client, client.originEpochMs);
      const added = atClient.map((t, i) => t - fromUpstream[i]);
      rows.add({
        figure: 'recording proxy added latency per frame, median',
        samples: median(added),
        unit: 'ms',
        target: { op: '<', value: 1 },
        note: `p99 ${fmt(quantile(added, 0.99), 'ms')}, ${added.length} frames`,
      });
    } finally {
      await proxy.close();
    }
  } finally {
    await server.close();
  }
}
