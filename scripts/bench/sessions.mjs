// Replay at scale: N concurrent sessions of a recorded progress call (gap error p99, errors), and the
// per-session cost (CPU, memory) of replaying long_output to 50 sessions, each beside a plain node:http
// SSE server writing the same recorded bytes and a naive msw handler. The upstream runs in a child
// process of its own (scripts/bench/session-upstream.mjs), so the clients here never delay its timers
// and its CPU and memory are its own; a fresh child per run. Variants interleaved, several runs each.
//   BENCH_SESSIONS=100,500   only these session counts (default 100,500,1000)
//   BENCH_RUNS=5             runs per variant (default 3)
//   BENCH_CPU_PROF=DIR       write a CPU profile of every measured replay run into DIR (see profile-top.mjs)
//   BENCH_BASELINE=DIST      also run another build's replay server (a 'baseline' row), for A/B
//   BENCH_TRACE_GC=1         run every upstream child with --trace-gc (a major GC inside a measured run
//                            is a pause every session sees: look for Mark-Compact lines after 'testing')
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readToolCall } from '../../dist/check/index.js';
import { readGolden } from '../../dist/index.js';
import { fmt, interleaved, median, quantile } from './kit.mjs';
import { judge, recordProgressGolden, runSessions, utf8Length } from './session-client.mjs';
import { startUpstream } from './upstream-child.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const COUNTS = (process.env.BENCH_SESSIONS ?? '100,500,1000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PROFILE_DIR = process.env.BENCH_CPU_PROF;
/** Calls start spread over this window: shorter than the 1 s stream, so all N streams are open together after it. */
const RAMP_MS = 500;
const SERVER_KINDS = process.env.BENCH_BASELINE ? ['replay', 'baseline', 'plain'] : ['replay', 'plain'];

/**
 * One measured run: a fresh upstream, one unmeasured warm-up session, then `n` sessions at once.
 * The msw kinds run their clients in the upstream's process (msw intercepts there only).
 */
async function measure(kind, golden, n, body, expect, rampMs) {
  const upstream = await startUpstream(kind, golden, PROFILE_DIR);
  try {
    const inChild = kind.startsWith('msw');
    const sessions = (count) =>
      inChild
        ? upstream.ask({ run: { n: count, body, rampMs } }, 'outcomes')
        : runSessions(upstream.url, count, body, { rampMs });
    await sessions(1);
    await upstream.ask('mark', 'marked');
    const outcomes = await sessions(n);
    const usage = await upstream.ask('usage', 'usage');
    const { gapErrors, errors } = judge(outcomes, expect);
    return { p99: gapErrors.length > 0 ? quantile(gapErrors, 0.99) : Number.NaN, errors, usage };
  } finally {
    await upstream.stop();
  }
}

/** Runs the variants interleaved; returns, per variant, the list of run results. */
async function compareKinds(kinds, golden, n, body, expect, rampMs = 0) {
  const results = Object.fromEntries(kinds.map((k) => [k, []]));
  await interleaved(
    Object.fromEntries(
      kinds.map((kind) => [
        kind,
        async () => {
          results[kind].push(await measure(kind, golden, n, body, expect, rampMs));
          return 0;
        },
      ]),
    ),
    { runs: RUNS, warmup: 0 },
  );
  return results;
}

const errorCount = (runs) => runs.reduce((sum, r) => sum + r.errors.length, 0);
const errorNote = (name, runs) => {
  const errors = runs.flatMap((r) => r.errors);
  return `${name} ${errors.length} errors${errors.length > 0 ? ` (${errors[0]})` : ''}`;
};

/** The tools/call request recorded in a golden, sent as-is so every upstream answers the same bytes. */
function recordedCall(golden) {
  const frame = golden.frames.find((f) => f.channel === 'json' && f.raw?.includes('"tools/call"'));
  const exchange = frame.exchange;
  const bytes = golden.frames
    .filter(
      (f) => f.exchange === exchange && f.dir === 'server->client' && (f.channel === 'sse' || f.channel === 'json'),
    )
    .reduce((sum, f) => sum + utf8Length(f.raw), 0);
  return { body: frame.raw, bytes };
}

async function pacingRows(rows, goldenPath) {
  const golden = await readGolden(goldenPath);
  const { body, bytes } = recordedCall(golden);
  const recordedMs = readToolCall(golden).progress.map((p) => p.atMs);
  for (const n of COUNTS) {
    const runs = await compareKinds(SERVER_KINDS, goldenPath, n, body, { recordedMs, bytes }, RAMP_MS);
    rows.add({
      figure: `${n} concurrent sessions (progress 20 x 50 ms, calls over 0.5 s): gap error p99`,
      samples: runs.replay.map((r) => r.p99),
      unit: 'ms',
      target: { op: '<=', value: 5 },
      peer: { name: 'plain node:http', samples: runs.plain.map((r) => r.p99) },
      note: `${errorNote('replay', runs.replay)}; ${errorNote('plain', runs.plain)} (a timer chain per stream, in order); ${Math.round((n * recordedMs.length) / ((recordedMs.at(-1) - recordedMs[0]) / 1000))} events/s`,
    });
    if (runs.baseline) {
      rows.add({
        figure: `${n} concurrent sessions: gap error p99, this build vs baseline`,
        samples: runs.replay.map((r) => r.p99),
        unit: 'ms',
        target: { op: '<=', value: 5 },
        peer: { name: 'baseline', samples: runs.baseline.map((r) => r.p99) },
        note: errorNote('baseline', runs.baseline),
      });
    }
    const cpu = (runs) => runs.map((r) => r.usage.cpuMs);
    rows.add({
      figure: `${n} concurrent sessions: upstream CPU time`,
      samples: cpu(runs.replay),
      unit: 'ms',
      target: { op: '<=', value: 1.5 * median(cpu(runs.plain)), extra: ' (plain node:http x1.5)' },
      peer: { name: 'plain node:http', samples: cpu(runs.plain) },
      note: `${runs.baseline ? `baseline ${fmt(median(cpu(runs.baseline)), 'ms')}; ` : ''}the whole run: ${n} handshakes and calls, ${n * recordedMs.length} notifications`,
    });
    rows.add({
      figure: `${n} concurrent sessions: sessions with an error`,
      samples: runs.replay.map((r) => r.errors.length),
      unit: '',
      target: { op: '<', value: 1 },
      peer: { name: 'plain node:http', samples: runs.plain.map((r) => r.errors.length) },
    });
  }
  const msw = await compareKinds(['msw-replay', 'msw-naive'], goldenPath, 100, body, { recordedMs, bytes }, RAMP_MS);
  rows.add({
    figure: '100 sessions in process via msw: gap error p99',
    samples: msw['msw-replay'].map((r) => r.p99),
    unit: 'ms',
    target: { op: '<=', value: 5 },
    peer: { name: 'naive msw handler', samples: msw['msw-naive'].map((r) => r.p99) },
    note: `${errorNote('ours', msw['msw-replay'])}; ${errorNote('naive', msw['msw-naive'])}; clients share msw's process`,
  });
}

function costRows(rows, label, runs, ours, peer, peerName) {
  for (const [what, key, unit] of [
    ['CPU time', 'cpuMs', 'ms'],
    ['peak heap + Buffers growth', 'heapGrowthMB', 'MB'],
  ]) {
    const peerSamples = runs[peer].map((r) => r.usage[key]);
    // Memory near nothing on both sides is within the sampling's noise (RSS pages, GC timing): a
    // 1 MB floor keeps a ratio of two near-zero figures from deciding.
    const floor = unit === 'MB' ? 1 : 0;
    rows.add({
      figure: `${label}: ${what}`,
      samples: runs[ours].map((r) => r.usage[key]),
      unit,
      target: {
        op: '<=',
        value: Math.max(1.5 * median(peerSamples), median(peerSamples) + floor),
        extra: ` (${peerName} x1.5${floor ? `, or +${floor} MB` : ''})`,
      },
      peer: { name: peerName, samples: peerSamples },
      note:
        key === 'cpuMs'
          ? `${errorNote('ours', runs[ours])}; ${errorNote(peerName, runs[peer])}`
          : `peak RSS growth ${fmt(median(runs[ours].map((r) => r.usage.rssGrowthMB)), 'MB')} vs ${fmt(median(runs[peer].map((r) => r.usage.rssGrowthMB)), 'MB')}`,
    });
  }
}

async function costRowsAll(rows) {
  const goldenPath = `${root}goldens/long_output-50x65536.jsonl`;
  const { body, bytes } = recordedCall(await readGolden(goldenPath));
  const expect = { bytes };
  const server = await compareKinds(SERVER_KINDS, goldenPath, 50, body, expect);
  costRows(rows, 'long_output 50 x 65536 to 50 sessions', server, 'replay', 'plain', 'plain node:http');
  if (server.baseline)
    costRows(rows, 'long_output to 50 sessions, vs baseline', server, 'replay', 'baseline', 'baseline');
  const msw = await compareKinds(['msw-replay', 'msw-naive'], goldenPath, 50, body, expect);
  costRows(rows, 'long_output to 50 sessions via msw', msw, 'msw-replay', 'msw-naive', 'naive msw');
  if (errorCount(server.replay) + errorCount(msw['msw-replay']) > 0) process.exitCode = 1;
}

/** Adds the sessions rows. */
export async function run(rows) {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-golden-sessions-'));
  try {
    const goldenPath = await recordProgressGolden(dir);
    if (!process.env.BENCH_SKIP_PACING) await pacingRows(rows, goldenPath);
    if (!process.env.BENCH_SKIP_COST) await costRowsAll(rows);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
