// Linear scaling: each function timed on a synthetic transcript of size N and of 8N (frames or
// bytes), interleaved; the row is the ratio of the two times, which stays near 8 when the work is
// linear and heads for 64 when it is quadratic.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { compareTranscripts, parseTranscript, serializeTranscript } from '../../dist/index.js';
import { forwardsFaithfully, preservesBlocks } from '../../dist/invariants/invariants.js';
import { buildReplayPlan } from '../../dist/replay/replay-plan.js';
import { interleaved, median } from './kit.mjs';

// A full collection before each timed run, so garbage left by the other size is not timed here.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc');

const FORMAT = 'mcp-golden/1';
const header = (transport) => ({
  format: FORMAT,
  protocolVersion: '2025-11-25',
  transport,
  target: 'http://127.0.0.1:4100/mcp',
  recorder: 'bench',
});

/** One SSE event carrying a JSON-RPC message. */
const sse = (exchange, t, id, message) => ({
  t,
  dir: 'server->client',
  channel: 'sse',
  exchange,
  raw: `event: message\nid: ${id}\ndata: ${JSON.stringify(message)}\n\n`,
});

/** `calls` tools/call exchanges over HTTP, each answered by `progress` notifications and a result. */
function httpCalls(calls, progress = 3, text = 'done') {
  const frames = [];
  let t = 0;
  const tick = (dt) => {
    t += dt;
    return t;
  };
  for (let k = 1; k <= calls; k++) {
    const request = {
      jsonrpc: '2.0',
      id: k,
      method: 'tools/call',
      params: { name: 'progress', arguments: { k }, _meta: { progressToken: `p${k}` } },
    };
    frames.push(
      {
        t: tick(50),
        dir: 'client->server',
        channel: 'http',
        exchange: k,
        method: 'POST',
        url: '/mcp',
        headers: { 'mcp-session-id': 's1' },
      },
      { t: tick(10), dir: 'client->server', channel: 'json', exchange: k, raw: JSON.stringify(request) },
      { t: tick(1), dir: 'client->server', channel: 'end', exchange: k, reason: 'complete' },
      {
        t: tick(100),
        dir: 'server->client',
        channel: 'http',
        exchange: k,
        status: 200,
        headers: { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' },
      },
    );
    for (let p = 1; p <= progress; p++) {
      const note = {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: `p${k}`, progress: p, total: progress },
      };
      frames.push(
        { t: tick(1000), dir: 'server->client', channel: 'read', exchange: k, size: 120 },
        sse(k, tick(5), `${k}-${p}`, note),
      );
    }
    const result = { jsonrpc: '2.0', id: k, result: { content: [{ type: 'text', text }] } };
    frames.push(sse(k, tick(1000), `${k}-r`, result), {
      t: tick(1),
      dir: 'server->client',
      channel: 'end',
      exchange: k,
      reason: 'complete',
    });
  }
  return { header: header('http'), frames };
}

/** `calls` requests over stdio, each answered by one line. */
function stdioCalls(calls) {
  const frames = [];
  let t = 0;
  const tick = (dt) => {
    t += dt;
    return t;
  };
  for (let k = 1; k <= calls; k++) {
    const request = { jsonrpc: '2.0', id: k, method: 'tools/call', params: { name: 'echo', arguments: { k } } };
    const result = { jsonrpc: '2.0', id: k, result: { content: [{ type: 'text', text: `echo ${k}` }] } };
    frames.push(
      { t: tick(50), dir: 'client->server', channel: 'stdio', exchange: k, raw: JSON.stringify(request) },
      { t: tick(500), dir: 'server->client', channel: 'stdio', exchange: k, raw: JSON.stringify(result) },
    );
  }
  return { header: header('stdio'), frames };
}

/** The same transcript with every time stretched a little: a live run that kept within the tolerance. */
const jittered = (transcript) => ({
  header: transcript.header,
  frames: transcript.frames.map((f, i) => ({ ...f, t: f.t + (i % 7) })),
});

/** A ratio row: `make(size)` builds the input, `work(input)` is timed; sizes N and 8N interleaved. */
async function ratioRow(rows, { figure, n, unit, make, work, runs = 9 }) {
  const small = make(n);
  const big = make(8 * n);
  const time = (input) => () => {
    collect();
    const started = performance.now();
    work(input);
    return performance.now() - started;
  };
  const samples = await interleaved({ small: time(small), big: time(big) }, { runs, warmup: 2 });
  const ratios = samples.small.map((s, i) => samples.big[i] / s);
  rows.add({
    figure: `scaling ${figure}, ${n.toLocaleString('en')} -> ${(8 * n).toLocaleString('en')} ${unit}`,
    samples: ratios,
    unit: 'x',
    target: { op: '<=', value: 12, extra: ' (8N/N)' },
    note: `${median(samples.small).toFixed(2)} ms at N, ${median(samples.big).toFixed(2)} ms at 8N`,
  });
}

const pass = (result) => {
  if (!result.pass) throw new Error(result.headline);
};

/** Adds the scaling rows. */
export async function run(rows) {
  const calls = 250;
  await ratioRow(rows, {
    figure: 'parseTranscript',
    n: calls,
    unit: 'calls',
    make: (n) => serializeTranscript(httpCalls(n)),
    work: (text) => parseTranscript(text),
  });
  await ratioRow(rows, {
    figure: 'compare, timing by order',
    n: calls,
    unit: 'calls',
    make: (n) => [httpCalls(n), httpCalls(n)],
    work: ([a, b]) => pass(compareTranscripts(a, b)),
  });
  await ratioRow(rows, {
    figure: 'compare, timing tolerance',
    n: calls,
    unit: 'calls',
    make: (n) => [jittered(httpCalls(n)), httpCalls(n)],
    work: ([a, b]) => pass(compareTranscripts(a, b, { timing: { absMs: 20, relGap: 0.5 } })),
  });
  await ratioRow(rows, {
    figure: 'compare, one large frame',
    n: 400_000,
    unit: 'bytes',
    make: (bytes) => [httpCalls(1, 1, 'x'.repeat(bytes)), httpCalls(1, 1, 'x'.repeat(bytes))],
    work: ([a, b]) => pass(compareTranscripts(a, b)),
  });
  await ratioRow(rows, {
    figure: 'buildReplayPlan, HTTP',
    n: calls,
    unit: 'calls',
    make: (n) => [httpCalls(n)],
    work: (goldens) => buildReplayPlan(goldens),
  });
  await ratioRow(rows, {
    figure: 'buildReplayPlan, stdio',
    n: 1000,
    unit: 'calls',
    make: (n) => [stdioCalls(n)],
    work: (goldens) => buildReplayPlan(goldens),
  });
  await ratioRow(rows, {
    figure: 'forwardsFaithfully, progress notifications',
    n: 4000,
    unit: 'notifications',
    make: (n) => [httpCalls(1, n), httpCalls(1, n)],
    work: ([a, b]) => {
      for (const verdict of forwardsFaithfully(a, b)) if (!verdict.pass) throw new Error(verdict.evidence);
    },
  });
  await ratioRow(rows, {
    figure: 'preservesBlocks, block text',
    n: 400_000,
    unit: 'bytes',
    make: (bytes) => [httpCalls(1, 1, 'é'.repeat(bytes / 2)), httpCalls(1, 1, 'é'.repeat(bytes / 2))],
    work: ([a, b]) => {
      const verdict = preservesBlocks(a, b);
      if (!verdict.pass) throw new Error(verdict.evidence);
    },
  });
}
