#!/usr/bin/env node
// A faithful 2026-07-28 gateway from Streamable HTTP to a stdio upstream, as mcp-proxy is in front of
// a 2026-07-28 stdio server: each POST's message written to an upstream process as a line (a request
// under an id of the gateway's own, so two clients' ids never meet), its progress and its answer
// streamed back on the POST's SSE response as they arrive, and a client closing that stream before
// the answer turned into notifications/cancelled naming the upstream id. Progress names only its
// token, which passes unchanged: a call whose token another running call already uses goes to another
// upstream process, so progress never crosses; tasks/* go to the process that made the task.
//   node modern-stdio-gateway.mjs <faithful|ignore-hang-up|no-input-rounds> <port> <upstream command...>
// ignore-hang-up: a client closing its stream is not passed on (the upstream call runs to its end).
// no-input-rounds: an input_required result becomes a -32603 error, as an SDK v2 client without an
//                  elicitation handler answers it (mcp-proxy 6.7.19 with --upstreamProtocol auto).
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';

const MODES = ['faithful', 'ignore-hang-up', 'no-input-rounds'];
const [mode, portArg, ...command] = process.argv.slice(2);
if (!MODES.includes(mode) || !portArg || command.length === 0) {
  process.stderr.write(`usage: modern-stdio-gateway.mjs <${MODES.join('|')}> <port> <upstream command...>\n`);
  process.exit(2);
}
/** The upstream processes, each with its calls waiting for their answer, by the upstream id. */
const upstreams = [];
/** The process that made each task, by task id. */
const taskHomes = new Map();
let nextId = 0;

function startUpstream() {
  const child = spawn(command.join(' '), { shell: true, stdio: ['pipe', 'pipe', 'inherit'] });
  const upstream = { child, pending: new Map() };
  child.on('exit', (code) => process.exit(code ?? 1));
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text) => {
    buffered += text;
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      if (line.trim() !== '') route(upstream, JSON.parse(line));
    }
  });
  upstreams.push(upstream);
  return upstream;
}
startUpstream();
process.on('SIGTERM', () => {
  for (const { child } of upstreams) child.kill('SIGTERM');
  process.exit(0);
});

/** The process a request goes to: the task's, else the first with no running call under its token. */
function upstreamFor(message) {
  const home = taskHomes.get(message.params?.taskId);
  if (message.method?.startsWith('tasks/') && home) return home;
  const token = message.params?._meta?.progressToken;
  if (token === undefined) return upstreams[0];
  const free = upstreams.find((u) => ![...u.pending.values()].some((c) => c.token === token));
  return free ?? startUpstream();
}

const send = (res, message) => {
  if (!res.headersSent) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
  }
  res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
};

function route(upstream, message) {
  if (message.id !== undefined && ('result' in message || 'error' in message)) {
    const call = upstream.pending.get(message.id);
    if (!call) return;
    upstream.pending.delete(message.id);
    if (message.result?.resultType === 'task') taskHomes.set(message.result.taskId, upstream);
    if (mode === 'no-input-rounds' && message.result?.resultType === 'input_required') {
      const error = { code: -32603, message: "Cannot fulfil input request 'confirm': no handler is registered" };
      send(call.res, { jsonrpc: '2.0', id: call.clientId, error });
    } else send(call.res, { ...message, id: call.clientId });
    call.res.end();
    return;
  }
  const token = message.params?.progressToken;
  if (message.method !== 'notifications/progress' || token === undefined) return;
  const call = [...upstream.pending.values()].find((c) => c.token === token);
  if (call) send(call.res, message);
}

const readBody = (req) =>
  new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

const server = createServer(async (req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  let message;
  try {
    message = JSON.parse(await readBody(req));
  } catch {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
    return;
  }
  if (typeof message.method !== 'string' || message.id === undefined) {
    upstreams[0].child.stdin.write(`${JSON.stringify(message)}\n`);
    res.writeHead(202).end();
    return;
  }
  const upstream = upstreamFor(message);
  const upstreamId = ++nextId;
  upstream.pending.set(upstreamId, { clientId: message.id, token: message.params?._meta?.progressToken, res });
  res.on('close', () => {
    if (!upstream.pending.delete(upstreamId) || mode === 'ignore-hang-up') return;
    // 2026-07-28 over HTTP cancels by closing the stream; over stdio it is a notification.
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: upstreamId } };
    upstream.child.stdin.write(`${JSON.stringify(cancel)}\n`);
  });
  upstream.child.stdin.write(`${JSON.stringify({ ...message, id: upstreamId })}\n`);
});
server.listen(Number(portArg), '127.0.0.1');
