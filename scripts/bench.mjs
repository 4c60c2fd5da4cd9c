// mcp-golden benchmarks: `npm run bench` (builds first). Prints every figure with its target and its
// ratio against the target or a baseline measured in the same run. `--quick` skips the npm test timing.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callView } from '../dist/check/index.js';
import {
  compareTranscripts,
  createReplayServer,
  readGolden,
  recordCall,
  verifyGoldens,
  writeGolden,
} from '../dist/index.js';
import { openHttpSession } from '../dist/record/http-wire-session.js';
import { startRecordingProxy } from '../dist/record/index.js';
import { runScenario } from '../dist/record/run-scenario.js';
import { scenarioOfGolden } from '../dist/record/scenario-of-golden.js';
import { startReferenceServer } from '../dist/server/index.js';
import { frameMessage } from '../dist/transcript/frame-content.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const quick = process.argv.includes('--quick');
const rows = [];
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
};
const median = (values) => quantile(values, 0.5);
const fmt = (n, unit) => `${n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : n.toFixed(0)} ${unit}`;
function row(figure, value, unit, target, baseline, note = '') {
  const ratio = baseline !== undefined ? value / baseline : value / target.value;
  const met = target.op === '<=' ? value <= target.value : value < target.value;
  rows.push({
    figure,
    value: fmt(value, unit),
    target: `${target.op} ${fmt(target.value, unit)}${target.extra ?? ''}`,
    ratio: `${ratio.toFixed(2)}x ${baseline !== undefined ? 'baseline' : 'target'}`,
    met: met ? 'yes' : 'NO',
    note,
    data: {
      figure,
      value,
      unit,
      target: target.value,
      targetOp: target.op,
      met,
      ...(baseline !== undefined && { peer: baseline, ratio }),
      note,
    },
  });
}

/** A minimal MCP client on node:http: one 'data' event per socket read, time-stamped. */
function post(url, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        const reads = [];
        res.on('data', (chunk) => reads.push({ t: performance.now() - started, text: chunk.toString('utf8') }));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, reads }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function rawProgressArrivals(url, steps, stepMs) {
  const init = await post(url, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  const session = init.headers['mcp-session-id'];
  const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  const call = await post(
    url,
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'progress', arguments: { steps, step_ms: stepMs }, _meta: { progressToken: 'bench' } },
    },
    headers,
  );
  // Arrival offset of each progress notification: the time of the read that carried it.
  const arrivals = [];
  for (const read of call.reads) for (const _ of read.text.matchAll(/notifications\/progress/g)) arrivals.push(read.t);
  return arrivals;
}

async function pacing() {
  const server = await startReferenceServer();
  try {
    // Baseline: the live server's own spacing error, |gap - step_ms| between consecutive notifications.
    const live = await rawProgressArrivals(server.url, 100, 10);
    const liveGapErrors = live.slice(1).map((t, i) => Math.abs(t - live[i] - 10));
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
      const startLatency = [];
      for (let run = 0; run < 3; run++) {
        const got = await rawProgressArrivals(replay.url, 100, 10);
        // Offsets measured from the stream's first notification, so the constant request latency
        // (reported on its own) does not count as pacing error.
        for (const [i, t] of got.entries()) {
          offsetErrors.push(Math.abs(t - got[0] - (recorded[i] - recorded[0])));
          if (i > 0) gapErrors.push(Math.abs(t - got[i - 1] - (recorded[i] - recorded[i - 1])));
        }
        startLatency.push(got[0] - recorded[0]);
      }
      const liveP99 = quantile(liveGapErrors, 0.99);
      row(
        'replay pacing: |arrival - recorded offset| p50 (100 x 10 ms, 1x)',
        median(offsetErrors),
        'ms',
        { op: '<=', value: 2 },
        undefined,
        `300 frames on node:http socket reads`,
      );
      row(
        'replay pacing: |arrival - recorded offset| p99',
        quantile(offsetErrors, 0.99),
        'ms',
        { op: '<=', value: 2 },
        undefined,
        `max ${fmt(Math.max(...offsetErrors), 'ms')}`,
      );
      row(
        'replay gap error p99 vs the live server (baseline)',
        quantile(gapErrors, 0.99),
        'ms',
        { op: '<=', value: liveP99, extra: ' (live)' },
        liveP99,
        `live server gap error p50 ${fmt(median(liveGapErrors), 'ms')}, p99 ${fmt(liveP99, 'ms')}`,
      );
      row(
        'replay first-notification latency vs recording',
        median(startLatency),
        'ms',
        { op: '<=', value: 5 },
        undefined,
        'constant request latency, not pacing',
      );
    } finally {
      await replay.close();
    }
  } finally {
    await server.close();
  }
}

async function wallTime(runs, fn) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return median(times);
}

async function recorderOverhead() {
  const server = await startReferenceServer();
  try {
    for (const [label, scenario, runs] of [
      ['long_output 50 x 65536', { tool: 'long_output', arguments: { blocks: 50, chars: 65536 } }, 12],
      ['progress 100 x 1 ms', { tool: 'progress', arguments: { steps: 100, step_ms: 1 }, progressToken: 'p' }, 12],
    ]) {
      // Baseline: the same wire driver with the plain fetch; the only difference is the tap and its frames.
      const baseline = await wallTime(runs, () =>
        runScenario(openHttpSession(server.url, { fetch, protocolVersion: '2025-11-25' }), scenario),
      );
      const tapped = await wallTime(runs, () => recordCall(server.url, scenario));
      row(
        `fetch tap wall time, ${label}`,
        tapped,
        'ms',
        { op: '<=', value: baseline * 1.05, extra: ' (baseline +5%)' },
        baseline,
        `unrecorded ${fmt(baseline, 'ms')}`,
      );
    }
    const proxy = await startRecordingProxy({ upstream: server.url });
    try {
      const client = await recordCall(proxy.url, {
        tool: 'progress',
        arguments: { steps: 100, step_ms: 10 },
        progressToken: 'proxy',
      });
      const proxied = proxy.transcript();
      const fromUpstream = proxied.frames
        .filter((f) => f.dir === 'server->client' && f.raw?.includes('notifications/progress'))
        .map((f) => proxy.originEpochMs + f.t / 1000);
      const atClient = client.frames
        .filter((f) => f.dir === 'server->client' && f.raw?.includes('notifications/progress'))
        .map((f) => client.originEpochMs + f.t / 1000);
      const added = atClient.map((t, i) => t - fromUpstream[i]);
      row(
        'recording proxy added latency per frame, median',
        median(added),
        'ms',
        { op: '<', value: 1 },
        undefined,
        `p99 ${fmt(quantile(added, 0.99), 'ms')}, ${added.length} frames`,
      );
    } finally {
      await proxy.close();
    }
  } finally {
    await server.close();
  }
}

async function goldenSpeed() {
  const path = `${root}goldens/long_output-50x65536.jsonl`;
  const loadCompare = await wallTime(5, async () => {
    const golden = await readGolden(path);
    const result = compareTranscripts(golden, golden);
    if (!result.pass) throw new Error('a golden must match itself');
  });
  row('load + normalise + compare a 3.2 MB golden', loadCompare, 'ms', { op: '<', value: 150 });
  const golden = await readGolden(path);
  const changed = {
    header: golden.header,
    frames: golden.frames.map((f) =>
      f.raw?.includes('[block 30]')
        ? { ...f, raw: f.raw.replace('[block 30] abcdefghij', '[block 30] abcdefXhij') }
        : f,
    ),
  };
  const failing = await wallTime(5, async () => {
    const result = compareTranscripts(changed, await readGolden(path));
    if (result.pass || !result.headline.includes('block 30')) throw new Error('the changed block must be found');
  });
  row('failing compare with one changed block, diff included', failing, 'ms', { op: '<', value: 300 });
}

async function throughput() {
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
    row(
      '200 concurrent chatty sessions, tools/call latency p99',
      quantile(latencies, 0.99),
      'ms',
      { op: '<', value: 50 },
      undefined,
      `p50 ${fmt(median(latencies), 'ms')}, unmatched ${replay.report().unmatched.length}`,
    );
  } finally {
    await replay.close();
  }
}

/**
 * `verify` over 100 goldens of a fast local server (the reference server's chatty tool over HTTP),
 * sequential and concurrent, beside what a peer recorder does: re-record each session and compare
 * the server's messages with a plain JSON diff (no normalisation, no streaming or schema checks).
 */
async function verifySpeed() {
  // The server runs in its own process, as a server under test would, so concurrency is measured
  // against a server that does not share the verifier's event loop.
  const child = spawn(process.execPath, [`${root}dist/cli/main.js`, 'serve', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text) => {
      out += text;
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    child.on('exit', (code) => reject(new Error(`mcp-golden serve exited with ${code}`)));
  });
  const server = {
    url,
    close: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
  const dir = await mkdtemp(join(tmpdir(), 'mcp-golden-bench-verify-'));
  try {
    const files = [];
    for (let i = 0; i < 100; i++) {
      const file = join(dir, `chatty-${String(i).padStart(3, '0')}.jsonl`);
      await writeGolden(file, await recordCall(server.url, { name: `chatty-${i}`, tool: 'chatty', requestId: i + 1 }));
      files.push(file);
    }
    const timed = async (fn) => {
      const started = performance.now();
      const out = await fn();
      return { ms: performance.now() - started, out };
    };
    const serverMessages = (t) =>
      t.frames
        .filter((f) => f.dir === 'server->client')
        .map(frameMessage)
        .filter(Boolean)
        .map((m) => JSON.stringify(m));
    const peer = await timed(async () => {
      let differing = 0;
      for (const file of files) {
        const golden = await readGolden(file);
        const live = await recordCall(server.url, scenarioOfGolden(golden));
        if (JSON.stringify(serverMessages(golden)) !== JSON.stringify(serverMessages(live))) differing++;
      }
      return differing;
    });
    const sequential = await timed(() => verifyGoldens(files, { target: server.url, concurrency: 1 }));
    const cores = cpus().length;
    const concurrent = await timed(() => verifyGoldens(files, { target: server.url, concurrency: cores }));
    const eight = await timed(() => verifyGoldens(files, { target: server.url, concurrency: 8 }));
    const failed = (run) => run.out.filter((v) => !v.pass).length;
    row(
      'verify 100 chatty goldens over HTTP, sequential',
      sequential.ms / 1000,
      's',
      { op: '<', value: 20 },
      peer.ms / 1000,
      `baseline: re-record + plain JSON diff ${fmt(peer.ms / 1000, 's')} (${peer.out} flagged); ${failed(sequential)} failed`,
    );
    row(
      `verify 100 chatty goldens over HTTP, --concurrency ${cores}`,
      concurrent.ms / 1000,
      's',
      { op: '<', value: 20 },
      sequential.ms / 1000,
      `baseline: sequential; ${failed(concurrent)} failed`,
    );
    row(
      'verify 100 chatty goldens over HTTP, --concurrency 8',
      eight.ms / 1000,
      's',
      { op: '<', value: 20 },
      sequential.ms / 1000,
      `baseline: sequential; ${failed(eight)} failed`,
    );
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function testSuite() {
  const started = performance.now();
  const result = spawnSync('npm', ['test'], { cwd: root, stdio: 'ignore', env: { ...process.env, CI: '' } });
  const seconds = (performance.now() - started) / 1000;
  row(
    'whole npm test (lint, type-check, build, all tests)',
    seconds,
    's',
    { op: '<', value: 180 },
    undefined,
    result.status === 0 ? 'passed' : `exit ${result.status}`,
  );
}

await pacing();
await recorderOverhead();
await goldenSpeed();
await throughput();
await verifySpeed();
if (!quick) testSuite();

const node = process.version;
const cpu = cpus()[0]?.model ?? 'unknown cpu';
console.log(
  `mcp-golden ${JSON.parse(execFileSync('node', ['-p', 'JSON.stringify(require("./package.json").version)'], { cwd: root, encoding: 'utf8' }))} bench · node ${node} · ${cpus().length} cores (${cpu}) · ${(totalmem() / 2 ** 30).toFixed(0)} GiB\n`,
);
const widths = ['figure', 'value', 'target', 'ratio', 'met'].map((k) =>
  Math.max(k.length, ...rows.map((r) => r[k].length)),
);
const line = (r) =>
  ['figure', 'value', 'target', 'ratio', 'met'].map((k, i) => r[k].padEnd(widths[i])).join(' | ') +
  (r.note ? ` | ${r.note}` : '');
console.log(line({ figure: 'figure', value: 'value', target: 'target', ratio: 'ratio', met: 'met', note: 'notes' }));
console.log(widths.map((w) => '-'.repeat(w)).join('-+-'));
for (const r of rows) console.log(line(r));
const jsonAt = process.argv.indexOf('--json');
if (jsonAt >= 0) {
  const file = process.argv[jsonAt + 1];
  if (!file) throw new Error('[mcp-golden] --json needs a file name: npm run bench -- --json bench.json');
  writeFileSync(
    file,
    `${JSON.stringify({ machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version }, rows: rows.map((r) => r.data) }, null, 2)}\n`,
  );
  console.log(`wrote ${file}`);
}
