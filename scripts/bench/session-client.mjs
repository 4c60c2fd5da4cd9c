// Cheap MCP session clients for the sessions bench: one raw keep-alive HTTP/1.1 connection per session
// on node:net (or fetch, for msw, which only intercepts in its own process). Each read is time-stamped;
// progress notifications are counted on the bytes, without parsing, so the client costs little next to
// the server it measures: at 1,000 sessions node:http's client took as much CPU as the server, and the
// client's own late turns of the loop were most of the gap error it reported (for every server alike).
import { connect } from 'node:net';
import { join } from 'node:path';

const PROGRESS = Buffer.from('notifications/progress');
const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
const encoder = new TextEncoder();

const N = 'n'.charCodeAt(0);
/** The buffer every connection reads into; see rawConnection. */
const READS = Buffer.alloc(64 * 1024);

const countIn = (buffer) => {
  let count = 0;
  for (let at = buffer.indexOf(PROGRESS); at >= 0; at = buffer.indexOf(PROGRESS, at + PROGRESS.length)) count++;
  return count;
};

/**
 * Counts progress notifications in a stream's reads, those cut across reads included (counted in the
 * read that completes them): `count(bytes)` for each read in order. It keeps only how much of the
 * name the last read ended with, so a read costs a search and no copy.
 */
export function progressCounter() {
  let carried = 0; // the length of the name's beginning that the reads so far ended with
  return (bytes) => {
    const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let count = countIn(buffer);
    if (carried > 0) {
      const rest = PROGRESS.length - carried;
      const seen = Math.min(rest, buffer.length);
      if (buffer.compare(PROGRESS, carried, carried + seen, 0, seen) !== 0) carried = 0;
      else if (seen === rest) {
        count++;
        carried = 0;
      } else {
        carried += seen;
        return count;
      }
    }
    // The longest proper beginning of the name this read ends with, if any.
    for (let at = Math.max(0, buffer.length - PROGRESS.length + 1); at < buffer.length; at++) {
      at = buffer.indexOf(N, at);
      if (at < 0) break;
      if (buffer.compare(PROGRESS, 0, buffer.length - at, at) === 0) {
        carried = buffer.length - at;
        break;
      }
    }
    return count;
  };
}

/**
 * Reads HTTP/1.1 responses off one connection, one at a time: the head (status, headers), then the
 * body as it arrives, by Content-Length or chunked, handing each piece of body to `onBody(bytes)`.
 * `push(bytes)` takes a read; `expect(onBody)` resolves with `{ status, headers }` at the body's end.
 */
export function responseReader() {
  let pending; // { onBody, resolve, reject }
  let buffered = Buffer.alloc(0);
  let state = 'head';
  let status = 0;
  let headers = {};
  let left = 0; // bytes of the body (length) or of the chunk (chunk) still to come
  let chunked = false;

  const fail = (message) => {
    const p = pending;
    pending = undefined;
    p?.reject(new Error(`[mcp-golden] bench client: ${message}`));
  };
  const finish = () => {
    const p = pending;
    pending = undefined;
    state = 'head';
    p.resolve({ status, headers });
  };
  const startBody = () => {
    chunked = /\bchunked\b/i.test(headers['transfer-encoding'] ?? '');
    if (chunked) state = 'size';
    else {
      left = status === 204 || status === 304 ? 0 : Number(headers['content-length'] ?? 0);
      state = 'length';
      if (left === 0) finish();
    }
  };
  /** Consumes what it can of `bytes` from `at`; returns where it stopped (all consumed, or a partial line). */
  const step = (bytes, at) => {
    while (at < bytes.length && pending) {
      if (state === 'head' || state === 'size' || state === 'crlf' || state === 'trailer') {
        const end = bytes.indexOf(state === 'head' ? HEAD_END : CRLF, at);
        if (end < 0) return at;
        const line = bytes.toString('latin1', at, end);
        at = end + (state === 'head' ? HEAD_END.length : CRLF.length);
        if (state === 'head') {
          const [first, ...rest] = line.split('\r\n');
          status = Number(first.split(' ')[1]);
          headers = {};
          for (const header of rest) {
            const colon = header.indexOf(':');
            headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
          }
          startBody();
        } else if (state === 'size') {
          left = Number.parseInt(line, 16);
          if (!Number.isFinite(left)) {
            fail(`bad chunk size line "${line.slice(0, 40)}"`);
            return bytes.length;
          }
          state = left === 0 ? 'trailer' : 'chunk';
        } else if (state === 'crlf') state = 'size';
        else if (line === '') finish();
      } else {
        const take = Math.min(left, bytes.length - at);
        pending.onBody(bytes.subarray(at, at + take));
        at += take;
        left -= take;
        if (left === 0) {
          if (state === 'chunk') state = 'crlf';
          else finish();
        }
      }
    }
    return at;
  };
  return {
    expect: (onBody) =>
      new Promise((resolve, reject) => {
        pending = { onBody, resolve, reject };
      }),
    push(bytes) {
      const all = buffered.length > 0 ? Buffer.concat([buffered, bytes]) : bytes;
      const at = step(all, 0);
      buffered = at < all.length ? Buffer.from(all.subarray(at)) : Buffer.alloc(0);
    },
    fail,
  };
}

/**
 * One keep-alive HTTP/1.1 connection to `url`'s host: `post(body, headers, onRead)` sends one POST and
 * resolves with `{ status, session }` when its response has ended; `onRead(bytes, t)` sees each read's
 * body bytes with the time (performance.now) the read arrived; the bytes are only valid during the call
 * (the read buffer is reused). One request at a time.
 */
export async function rawConnection(url) {
  const { hostname, port, pathname } = new URL(url);
  const reader = responseReader();
  let arrived = 0;
  // Reads land in one buffer that every connection shares (each read is handled before the next),
  // handed straight to the callback: no Buffer and no 'data' event per read.
  const socket = connect({
    host: hostname,
    port: Number(port),
    noDelay: true,
    onread: {
      buffer: READS,
      callback(length, buffer) {
        arrived = performance.now();
        reader.push(buffer.subarray(0, length));
      },
    },
  });
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.setTimeout(60_000, () => socket.destroy(new Error('no answer within 60 s')));
  socket.on('error', (error) => reader.fail(error.message));
  socket.on('close', () => reader.fail('the server closed the connection'));
  return {
    post(body, headers, onRead) {
      // A connection the server closed while idle (its keep-alive timeout, when opening every
      // session took longer under load) takes no request: written to, it would wait for ever.
      if (socket.destroyed) {
        return Promise.reject(new Error('[mcp-golden] bench client: the server closed the idle connection'));
      }
      const done = reader.expect((piece) => onRead(piece, arrived));
      const lines = [
        `POST ${pathname} HTTP/1.1`,
        `host: ${hostname}:${port}`,
        'content-type: application/json',
        'accept: application/json, text/event-stream',
        `content-length: ${Buffer.byteLength(body)}`,
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
      return done.then(({ status, headers: got }) => ({ status, session: got['mcp-session-id'] }));
    },
    close: () => socket.destroy(),
  };
}

/** The same POST through fetch (what msw intercepts). */
async function fetchPost(url, body, headers, onRead) {
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

/** A session's way to POST: its own raw connection ('http'), or fetch ('fetch', what msw intercepts). */
async function poster(url, via) {
  if (via === 'fetch') return { post: (body, headers, onRead) => fetchPost(url, body, headers, onRead), close() {} };
  return rawConnection(url);
}

/** Opens a session (initialize, notifications/initialized) on `connection`. Resolves with the headers its call needs. */
export async function openSession(connection) {
  const init = await connection.post(INITIALIZE, {}, () => undefined);
  if (init.status !== 200) throw new Error(`initialize answered ${init.status}`);
  const headers = { ...(init.session && { 'mcp-session-id': init.session }), 'mcp-protocol-version': '2025-11-25' };
  const ack = await connection.post(INITIALIZED, headers, () => undefined);
  if (ack.status !== 202) throw new Error(`notifications/initialized answered ${ack.status}`);
  return headers;
}

/**
 * Sends the recorded `tools/call` body on an open session. Resolves with the arrival time (ms,
 * performance.now) of every progress notification, the byte count and the time the call was sent.
 */
export async function callOnce(connection, headers, body) {
  const arrivals = [];
  let bytes = 0;
  const sent = performance.now();
  const count = progressCounter();
  const res = await connection.post(body, headers, (chunk, t) => {
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
 * requests in one burst. `via`: 'http' (a raw connection each) or 'fetch'. Resolves with each
 * session's outcome or error.
 */
export async function runSessions(url, n, body, { via = 'http', rampMs = 0 } = {}) {
  const connections = await Promise.allSettled(Array.from({ length: n }, () => poster(url, via)));
  try {
    const opened = await Promise.allSettled(
      connections.map(async (c) => {
        if (c.status !== 'fulfilled') throw c.reason;
        return openSession(c.value);
      }),
    );
    const calls = await Promise.allSettled(
      opened.map(async (o, i) => {
        if (o.status !== 'fulfilled') throw o.reason;
        if (rampMs > 0) await delay((i * rampMs) / n);
        return callOnce(connections[i].value, o.value, body);
      }),
    );
    return calls.map((c) => (c.status === 'fulfilled' ? c.value : { error: String(c.reason?.message ?? c.reason) }));
  } finally {
    for (const c of connections) if (c.status === 'fulfilled') c.value.close();
  }
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

/** Records the reference server's progress call (20 x 50 ms, token 'bench') into `dir`; returns the golden's path. */
export async function recordProgressGolden(dir) {
  const { recordCall, writeGolden } = await import('../../dist/index.js');
  const { startReferenceServer } = await import('../../dist/server/index.js');
  const server = await startReferenceServer();
  let golden;
  try {
    golden = await recordCall(server.url, {
      tool: 'progress',
      arguments: { steps: 20, step_ms: 50 },
      progressToken: 'bench',
      requestId: 1,
    });
  } finally {
    await server.close();
  }
  const goldenPath = join(dir, 'progress-20x50.jsonl');
  await writeGolden(goldenPath, golden);
  return goldenPath;
}
