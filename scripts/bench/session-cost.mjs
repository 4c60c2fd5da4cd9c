// The per-session cost of a replay beside the plain node:http server, in figures that do not depend
// on the machine's load: what the upstream allocated on its JS heap per session, its collections by
// kind (count, pause total, longest), its CPU, and the handles and timers it holds mid-stream. Same
// upstreams, golden and clients as the sessions bench (session-upstream.mjs, session-client.mjs).
//   node scripts/bench/session-cost.mjs [N,N...] [runs]     (default 500,1000 and 2; build first)
//   BENCH_BASELINE=DIST   also measure another build's replay server (a 'baseline' row), for A/B
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGolden } from '../../dist/index.js';
import { median } from './kit.mjs';
import { recordProgressGolden, runSessions } from './session-client.mjs';
import { startUpstream } from './upstream-child.mjs';

const counts = (process.argv[2] ?? '500,1000').split(',').map(Number);
const runs = Number(process.argv[3] ?? 2);
const kinds = process.env.BENCH_BASELINE ? ['replay', 'baseline', 'plain'] : ['replay', 'plain'];
/** As the sessions bench: calls spread over 0.5 s, so all streams of the 1 s recording are open together. */
const RAMP_MS = 500;

async function measure(kind, goldenPath, body, n) {
  const upstream = await startUpstream(kind, goldenPath);
  try {
    await runSessions(upstream.url, 1, body);
    await upstream.ask('mark', 'marked');
    const sessions = runSessions(upstream.url, n, body, { rampMs: RAMP_MS });
    // Mid-stream: after the ramp every stream is open.
    await new Promise((resolve) => setTimeout(resolve, RAMP_MS + 200));
    const resources = await upstream.ask('resources', 'resources');
    const outcomes = await sessions;
    const usage = await upstream.ask('usage', 'usage');
    return { usage, resources, errors: outcomes.filter((o) => o.error).length };
  } finally {
    await upstream.stop();
  }
}

const dir = await mkdtemp(join(tmpdir(), 'mcp-golden-session-cost-'));
try {
  const goldenPath = await recordProgressGolden(dir);
  const call = (await readGolden(goldenPath)).frames.find((f) => f.channel === 'json' && f.raw?.includes('tools/call'));
  for (const n of counts) {
    const results = Object.fromEntries(kinds.map((k) => [k, []]));
    for (let round = 0; round < runs; round++) {
      for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) {
        results[kind].push(await measure(kind, goldenPath, call.raw, n));
      }
    }
    for (const kind of kinds) {
      const list = results[kind];
      const of = (pick) => median(list.map(pick));
      const gcKinds = [...new Set(list.flatMap((r) => Object.keys(r.usage.gc.byKind)))];
      const gcText = gcKinds
        .map((g) => {
          const counts = list.map((r) => r.usage.gc.byKind[g]?.count ?? 0).join('/');
          const pause = of((r) => r.usage.gc.byKind[g]?.pauseMs ?? 0);
          const max = of((r) => r.usage.gc.byKind[g]?.maxMs ?? 0);
          return `${g} x${counts} (${pause.toFixed(1)} ms, longest ${max.toFixed(1)})`;
        })
        .join(', ');
      const resources = Object.entries(list[0].resources)
        .map(([name, count]) => `${name} ${count}`)
        .join(', ');
      console.log(
        `${n} sessions ${kind.padEnd(8)} allocated ${of((r) => r.usage.gc.allocatedMB).toFixed(1)} MB ` +
          `(${((of((r) => r.usage.gc.allocatedMB) * 1024) / n).toFixed(1)} KB/session; runs ${list.map((r) => r.usage.gc.allocatedMB.toFixed(1)).join('/')}), ` +
          `CPU ${of((r) => r.usage.cpuMs).toFixed(0)} ms, errors ${list.map((r) => r.errors).join('/')}\n` +
          `    GC: ${gcText}\n    mid-stream: ${resources}`,
      );
    }
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
