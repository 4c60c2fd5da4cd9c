// The upstream side of the sessions bench, in a process of its own so the clients' work never delays
// its timers and its CPU and memory are its own: `node session-upstream.mjs KIND GOLDEN`, driven over
// IPC by scripts/bench/sessions.mjs. KIND:
//   replay       mcp-golden's createReplayServer (the product)
//   baseline     the same from another build (BENCH_BASELINE=path/to/dist), for A/B runs of a change
//   plain        a plain node:http SSE server writing the recorded bytes (pre-encoded), a setTimeout chain per stream
//   live         the reference server itself (the golden is not served, only read)
//   msw-replay   mcp-golden/msw handlers; the clients run here too (msw intercepts in-process only)
//   msw-naive    an msw http.post handler returning a ReadableStream fed in order by a timer chain
// Messages: 'mark' (start measuring), {run: {n, body}} (msw kinds: run the sessions here), 'usage'.
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { GCProfiler } from 'node:v8';
import { readGolden } from '../../dist/index.js';
import { runSessions } from './session-client.mjs';

const [kind, goldenPath] = process.argv.slice(2);
const golden = await readGolden(goldenPath);
const MSW_URL = 'http://upstream.test/mcp';

/** The recorded answer to each JSON-RPC method: status, content type, body events with their offsets. */
function recordedAnswers() {
  const answers = new Map();
  const exchanges = new Set(golden.frames.map((f) => f.exchange));
  for (const exchange of exchanges) {
    const frames = golden.frames.filter((f) => f.exchange === exchange);
    const head = frames.find((f) => f.channel === 'http' && f.dir === 'client->server');
    const request = frames.find((f) => f.channel === 'json' && f.dir === 'client->server');
    const response = frames.find((f) => f.channel === 'http' && f.dir === 'server->client');
    if (!head || !request || !response) continue;
    const method = JSON.parse(request.raw).method;
    const events = frames
      .filter((f) => f.dir === 'server->client' && (f.channel === 'sse' || f.channel === 'json'))
      .map((f) => ({ offsetMs: (f.t - head.t) / 1000, raw: f.raw, bytes: Buffer.from(f.raw) }));
    answers.set(method, {
      status: response.status,
      contentType: response.headers?.['content-type'] ?? 'text/event-stream',
      events,
    });
  }
  return answers;
}

function plainServer(answers) {
  let sessions = 0;
  return createServer((req, res) => {
    req.socket.setNoDelay(true);
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const answer = answers.get(JSON.parse(Buffer.concat(chunks).toString()).method);
      if (answer?.status !== 200) {
        res.writeHead(answer?.status ?? 404).end();
        return;
      }
      const session = req.headers['mcp-session-id'] ?? `plain-${++sessions}`;
      res.writeHead(200, {
        'content-type': answer.contentType,
        'cache-control': 'no-cache',
        'mcp-session-id': session,
      });
      res.flushHeaders();
      paceInOrder(answer.events, {
        write: (event) => res.write(event.bytes),
        end: (event) => res.end(event.bytes),
      });
    });
  });
}

/**
 * Hands a stream's events to `out.write(event)` at their offsets from now, in order, the last to
 * `out.end(event)`: one timer per
 * stream, re-armed for the next event, every delay measured from the same start. A timer per event
 * (this server's first form) fires out of order when the loop runs late, and a stream whose last
 * event ended it early lost the rest: those sessions, the latest ones, counted as errors and left
 * the plain server's gap error p99, which then judged only the sessions it served in time.
 */
function paceInOrder(events, out) {
  const start = performance.now();
  let next = 0;
  const step = () => {
    const now = performance.now() - start;
    while (next < events.length && events[next].offsetMs <= now) {
      const event = events[next++];
      if (next === events.length) out.end(event);
      else out.write(event);
    }
    if (next < events.length) setTimeout(step, events[next].offsetMs - now);
  };
  if (events.length === 0) out.end({ bytes: Buffer.alloc(0), raw: '' });
  else setTimeout(step, events[0].offsetMs);
}

async function mswHandlers(answers) {
  if (kind === 'msw-replay') {
    const { createReplayHandlers } = await import('../../dist/msw/index.js');
    return createReplayHandlers(golden, { url: MSW_URL }).handlers;
  }
  const { http } = await import('msw');
  const encoder = new TextEncoder();
  let sessions = 0;
  return [
    http.post(MSW_URL, async ({ request }) => {
      const answer = answers.get((await request.json()).method);
      if (answer?.status !== 200) return new Response(null, { status: answer?.status ?? 404 });
      const session = request.headers.get('mcp-session-id') ?? `naive-${++sessions}`;
      const body = new ReadableStream({
        start(controller) {
          // In order, as the plain server: a timer per event fired out of order under load, and an
          // event enqueued after the last one had closed the stream threw (ERR_INVALID_STATE).
          paceInOrder(answer.events, {
            write: (event) => controller.enqueue(encoder.encode(event.raw)),
            end: (event) => {
              controller.enqueue(encoder.encode(event.raw));
              controller.close();
            },
          });
        },
      });
      return new Response(body, {
        headers: { 'content-type': answer.contentType, 'cache-control': 'no-cache', 'mcp-session-id': session },
      });
    }),
  ];
}

let url = MSW_URL;
let close = async () => undefined;
if (kind === 'replay' || kind === 'baseline') {
  const dist = kind === 'replay' ? '../../dist' : pathToFileURL(process.env.BENCH_BASELINE ?? '').href;
  const { createReplayServer } = await import(`${dist}/index.js`);
  const replay = await createReplayServer(golden);
  url = replay.url;
  close = () => replay.close();
} else if (kind === 'live') {
  const { startReferenceServer } = await import('../../dist/server/index.js');
  const server = await startReferenceServer();
  url = server.url;
  close = () => server.close();
} else if (kind === 'plain') {
  const server = plainServer(recordedAnswers());
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${server.address().port}/mcp`;
  close = () =>
    new Promise((resolve) => {
      server.close(resolve);
      server.closeAllConnections();
    });
} else if (kind === 'msw-replay' || kind === 'msw-naive') {
  const { setupServer } = await import('msw/node');
  const msw = setupServer(...(await mswHandlers(recordedAnswers())));
  msw.listen({ onUnhandledRequest: 'error' });
  close = async () => msw.close();
} else {
  throw new Error(`unknown upstream kind ${kind}: expected replay, plain, msw-replay or msw-naive`);
}

// CPU and memory from 'mark' on; memory as the peak seen (sampled every 20 ms) over the value at 'mark':
// RSS, and the JS heap plus Buffers outside it (what the process holds for its sessions).
const held = (usage = process.memoryUsage()) => usage.heapUsed + usage.external;
let cpuAtMark = process.cpuUsage();
let rssAtMark = process.memoryUsage.rss();
let heapAtMark = held();
let peakRss = rssAtMark;
let peakHeap = heapAtMark;
// Reading the heap's figures costs CPU (~0.5 ms): the sampler's own CPU time is taken off the figure.
let samplerMs = 0;
const sampler = setInterval(() => {
  const started = process.cpuUsage();
  const usage = process.memoryUsage();
  peakRss = Math.max(peakRss, usage.rss);
  peakHeap = Math.max(peakHeap, held(usage));
  const spent = process.cpuUsage(started);
  samplerMs += (spent.user + spent.system) / 1000;
}, 20);
sampler.unref();

// What the measured part allocated and collected, figures that do not depend on the machine's load:
// bytes allocated on the JS heap (the used heap's growth between collections, summed), and the
// collections by kind with their pauses (a pause is every session's: its timers all wait for it).
let gcProfiler;
function gcFigures() {
  const { statistics } = gcProfiler.stop();
  gcProfiler = undefined;
  let allocated = 0;
  let usedBefore = gcAtMark;
  const byKind = {};
  for (const gc of statistics) {
    allocated += Math.max(0, gc.beforeGC.heapStatistics.usedHeapSize - usedBefore);
    usedBefore = gc.afterGC.heapStatistics.usedHeapSize;
    byKind[gc.gcType] ??= { count: 0, pauseMs: 0, maxMs: 0 };
    const kind = byKind[gc.gcType];
    kind.count++;
    kind.pauseMs += gc.cost / 1000;
    kind.maxMs = Math.max(kind.maxMs, gc.cost / 1000);
  }
  allocated += Math.max(0, process.memoryUsage().heapUsed - usedBefore);
  return { allocatedMB: allocated / 2 ** 20, byKind };
}
let gcAtMark = 0;

// BENCH_CPU_PROF=DIR: a CPU profile of the measured part only (from 'mark' to 'usage'), not the start-up.
// BENCH_HEAP_PROF=DIR: a sampling heap profile of the same part, every allocation (those collected
// since included), so it says where what the GC had to collect was allocated (see profile-top.mjs).
const profileDir = process.env.BENCH_CPU_PROF;
const heapDir = process.env.BENCH_HEAP_PROF;
const inspector = profileDir || heapDir ? new (await import('node:inspector')).Session() : undefined;
const post = (method, params) =>
  new Promise((resolve, reject) =>
    inspector.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
  );
async function startProfile() {
  if (!inspector) return;
  inspector.connect();
  if (heapDir) {
    await post('HeapProfiler.enable');
    await post('HeapProfiler.startSampling', {
      samplingInterval: 512,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  if (!profileDir) return;
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 250 });
  await post('Profiler.start');
}
async function stopProfile() {
  if (!inspector) return;
  const { writeFileSync } = await import('node:fs');
  if (profileDir) {
    const { profile } = await post('Profiler.stop');
    writeFileSync(`${profileDir}/${kind}-${process.pid}.cpuprofile`, JSON.stringify(profile));
  }
  if (heapDir) {
    const { profile } = await post('HeapProfiler.stopSampling');
    writeFileSync(`${heapDir}/${kind}-${process.pid}.heapprofile`, JSON.stringify(profile));
  }
  inspector.disconnect();
}

process.on('message', async (message) => {
  if (message === 'mark') {
    globalThis.gc?.();
    await startProfile();
    cpuAtMark = process.cpuUsage();
    rssAtMark = process.memoryUsage.rss();
    heapAtMark = held();
    peakRss = rssAtMark;
    peakHeap = heapAtMark;
    samplerMs = 0;
    gcProfiler = new GCProfiler();
    gcAtMark = process.memoryUsage().heapUsed;
    gcProfiler.start();
    process.send({ marked: true });
  } else if (message === 'usage') {
    const cpu = process.cpuUsage(cpuAtMark);
    const gc = gcProfiler ? gcFigures() : undefined;
    await stopProfile();
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    peakHeap = Math.max(peakHeap, held());
    process.send({
      usage: {
        cpuMs: (cpu.user + cpu.system) / 1000 - samplerMs,
        rssGrowthMB: (peakRss - rssAtMark) / 2 ** 20,
        heapGrowthMB: (peakHeap - heapAtMark) / 2 ** 20,
        gc,
      },
    });
  } else if (message === 'resources') {
    // The handles and timers alive now (asked mid-run: what every open stream holds).
    const resources = {};
    for (const name of process.getActiveResourcesInfo()) resources[name] = (resources[name] ?? 0) + 1;
    process.send({ resources });
  } else if (message?.run) {
    const { n, body, rampMs } = message.run;
    process.send({ outcomes: await runSessions(url, n, body, { via: 'fetch', rampMs }) });
  } else if (message === 'close') {
    await close();
    process.exit(0);
  }
});
process.send({ url });
