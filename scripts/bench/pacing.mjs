// Replay pacing: how close the replayer's arrivals are to the recorded offsets, beside the live server.
// Replayer and live server each run in a process of their own (scripts/bench/upstream-child.mjs), so the
// measuring client here never delays their timers; live and replayed runs are interleaved.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readToolCall } from '../../dist/check/index.js';
import { recordCall, writeGolden } from '../../dist/index.js';
import { startReferenceServer } from '../../dist/server/index.js';
import { rawProgressArrivals } from './http-client.mjs';
import { fmt, median, quantile } from './kit.mjs';
import { startUpstream } from './upstream-child.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

async function recordGolden(dir) {
  const server = await startReferenceServer();
  try {
    const golden = await recordCall(server.url, {
      tool: 'progress',
      arguments: { steps: 100, step_ms: 10 },
      progressToken: 'bench',
      requestId: 1,
    });
    const path = join(dir, 'progress-100x10.jsonl');
    await writeGolden(path, golden);
    return { golden, path };
  } finally {
    await server.close();
  }
}

/** Adds the pacing rows. */
export async function run(rows) {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-golden-pacing-'));
  try {
    const { golden, path } = await recordGolden(dir);
    const live = await startUpstream('live', path);
    const replay = await startUpstream('replay', path);
    try {
      const recorded = readToolCall(golden).progress.map((p) => p.atMs);
      const offsetP50 = [];
      const offsetP99 = [];
      const gapP99 = [];
      const liveGapP99 = [];
      const startLatency = [];
      // Live and replayed runs interleaved (which goes first alternating), so both see the same load.
      for (let run = 0; run < RUNS; run++) {
        const order = run % 2 === 0 ? ['live', 'replay'] : ['replay', 'live'];
        for (const side of order) {
          const got = await rawProgressArrivals(side === 'live' ? live.url : replay.url, 100, 10);
          if (side === 'live') {
            liveGapP99.push(
              quantile(
                got.slice(1).map((t, i) => Math.abs(t - got[i] - 10)),
                0.99,
              ),
            );
            continue;
          }
          // Offsets measured from the stream's first notification, so the constant request latency
          // (reported on its own) does not count as pacing error.
          const offsets = got.map((t, i) => Math.abs(t - got[0] - (recorded[i] - recorded[0])));
          const gaps = got.slice(1).map((t, i) => Math.abs(t - got[i] - (recorded[i + 1] - recorded[i])));
          offsetP50.push(median(offsets));
          offsetP99.push(quantile(offsets, 0.99));
          gapP99.push(quantile(gaps, 0.99));
          startLatency.push(got[0] - recorded[0]);
        }
      }
      rows.add({
        figure: 'replay pacing: |arrival - recorded offset| p50 (100 x 10 ms, 1x)',
        samples: offsetP50,
        unit: 'ms',
        target: { op: '<=', value: 2 },
        note: `${RUNS} replays of 100 frames on node:http socket reads, replayer in its own process`,
      });
      rows.add({
        figure: 'replay pacing: |arrival - recorded offset| p99',
        samples: offsetP99,
        unit: 'ms',
        target: { op: '<=', value: 2 },
      });
      rows.add({
        figure: 'replay gap error p99 vs the live server',
        samples: gapP99,
        unit: 'ms',
        target: { op: '<=', value: 5 },
        peer: { name: 'live server', samples: liveGapP99 },
        note: `live gap error p99 per run ${liveGapP99.map((v) => fmt(v, 'ms')).join(', ')}`,
      });
      rows.add({
        figure: 'replay first-notification latency vs recording',
        samples: startLatency,
        unit: 'ms',
        target: { op: '<=', value: 5 },
        note: 'constant request latency, not pacing',
      });
    } finally {
      await replay.stop();
      await live.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
