// Cheap MCP session clients for the sessions bench: raw node:http on a keep-alive Agent (or fetch, for
// msw, which only intercepts in its own process). Each read is time-stamped; progress notifications are
// counted on the bytes, without parsing, so the client costs little next to the server it measures.
import { Agent, request } from 'node:http';

const PROGRESS = Buffer.from('notifications/progress');
const encoder = new TextEncoder();

/** A keep-alive agent for `n` concurrent sessions (each holds one socket while its stream is open). */
export const sessionAgent = (n) => new Agent({ keepAlive: true, maxSockets: n + 16, maxFreeSockets: n + 16 });

const countIn = (buffer) => {
  let count = 0;
  for (let at = buffer.indexOf(PROGRESS); at >= 0; at = buffer.indexOf(PROGRESS, at + PROGRESS.length)) count++;
  return count;
};

/**
 * Counts progress notifications in a stream's reads, those cut across two reads included (counted
 * in the read that completes them): `count(bytes)` for each read in order.
 */
export function progressCounter() {
  let carry = Buffer.alloc(0);
  return (bytes) => {
    const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // Only a match that starts in the carried tail and ends in this read is found at the seam.
    const seam = Buffer.concat([carry, buffer.subarray(0, PROGRESS.length - 1)]);
    const count = (carry.length > 0 ? countIn(seam) : 0) + countIn(buffer);
    carry = Buffer.from(seam.subarray(Math.max(0, seam.length - (PROGRESS.length - 1))));
    if (buffer.length >= PROGRESS.length - 1)
      carry = Buffer.from(buffer.subarray(buffer.length - (PROGRESS.length - 1)));
    return count;
  };
}

/** One POST over node:http; `onRead(bytes, t)` sees every read. Resolves with status and headers at the end. */
function httpPost(agent, url, body, headers, onRead) {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        res.on('data', (chunk) => onRead(chunk, performance.now()));
        res.on('end', () => resolve({ status: res.statusCode, session: res.headers['mcp-session-id'] }));
        res.on('error', reject);
      },
    );
    req.setTimeout(60_000, () => req.destroy(new Error('no answer within 60 s')));
    req.on('error', reject);
    req.end(body);
  });
}

/** The same POST through fetch (what msw intercepts). */
async function fetchPost(_agent, url, body, headers, onRead) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
    signal: AbortSignal.timeout(60_000),
  });
  if (res.body) {
    const reader = res.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) onRead(read.value, performance.now());
  }
  return { status: res.status, session: res.headers.get('mcp-session-id') ?? undefined };
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
});
const INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });

/**
 * Opens a session (initialize, notifications/initialized). Resolves with the headers its call needs.
 * `via` is 'http' (node:http with `agent`) or 'fetch'.
 */
export async function openSession(url, agent, via = 'http') {
  const post = via === 'fetch' ? fetchPost : httpPost;
  const init = await post(agent, url, INITIALIZE, {}, () => undefined);
  if (init.status !== 200) throw new Error(`initialize answered ${init.status}`);
  const headers = { ...(init.session && { 'mcp-session-id': init.session }), 'mcp-protocol-version': '2025-11-25' };
  const ack = await post(agent, url, INITIALIZED, headers, () => undefined);
  if (ack.status !== 202) throw new Error(`notifications/initialized answered ${ack.status}`);
  return headers;
}

/**
 * Sends the recorded `tools/call` body on an open session. Resolves with the arrival time (ms,
 * performance.now) of every progress notification, the byte count and the time the call was sent.
 */
export async function callOnce(url, agent, headers, body, via = 'http') {
  const post = via === 'fetch' ? fetchPost : httpPost;
  const arrivals = [];
  let bytes = 0;
  const sent = performance.now();
  const count = progressCounter();
  const res = await post(agent, url, body, headers, (chunk, t) => {
    bytes += chunk.byteLength;
    for (let n = count(chunk); n > 0; n--) arrivals.push(t);
  });
  if (res.status !== 200) throw new Error(`tools/call answered ${res.status}`);
  return { arrivals, bytes, sent };
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `n` sessions against `url`: all open their sessions first, then (a barrier) send their calls
 * spread evenly over `rampMs`, so that with a stream longer than the ramp all `n` streams are open
 * together once the ramp is over, and neither side spends the first stream's gaps taking `n`
 * requests in one burst. Resolves with each session's outcome or error.
 */
export async function runSessions(url, n, body, { via = 'http', agent = sessionAgent(n), rampMs = 0 } = {}) {
  const opened = await Promise.allSettled(Array.from({ length: n }, () => openSession(url, agent, via)));
  const calls = await Promise.allSettled(
    opened.map(async (o, i) => {
      if (o.status !== 'fulfilled') throw o.reason;
      if (rampMs > 0) await delay((i * rampMs) / n);
      return callOnce(url, agent, o.value, body, via);
    }),
  );
  if (via === 'http') agent.destroy();
  return calls.map((c) => (c.status === 'fulfilled' ? c.value : { error: String(c.reason?.message ?? c.reason) }));
}

/** Bytes of a text in UTF-8 (what a client receives for it). */
export const utf8Length = (text) => encoder.encode(text).byteLength;

/**
 * Sums the outcome of a run: errors (failed sessions, wrong notification counts, wrong byte counts)
 * and every gap error |replayed gap - recorded gap| in ms.
 */
export function judge(outcomes, { recordedMs, bytes }) {
  const gapErrors = [];
  const errors = [];
  for (const o of outcomes) {
    if (o.error) {
      errors.push(o.error);
      continue;
    }
    if (recordedMs && o.arrivals.length !== recordedMs.length) {
      errors.push(`${o.arrivals.length} of ${recordedMs.length} notifications`);
      continue;
    }
    if (bytes !== undefined && o.bytes !== bytes) {
      errors.push(`${o.bytes} bytes, expected ${bytes}`);
      continue;
    }
    for (let i = 1; i < o.arrivals.length; i++) {
      gapErrors.push(Math.abs(o.arrivals[i] - o.arrivals[i - 1] - (recordedMs[i] - recordedMs[i - 1])));
    }
  }
  return { gapErrors, errors };
}
