#!/usr/bin/env node
// A gateway in front of two upstream replicas, for the check's affinity rows:
//   node replica-gateway.mjs <upstream-url> <upstream2-url> <port> pin|round-robin|one
// pin: a request with Mcp-Session-Id goes to the replica that issued that id (2025-11-25), a tasks/*
// request with Mcp-Name: <taskId> to the replica that created that task (2026-07-28), others alternate;
// round-robin: every request goes to the next replica, whatever its session or task.
// one: every request goes to the first replica (a balancer that pins everything to one backend).
import { createServer } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { forwardRequest } from './forward-request.mjs';

const [first, second, portArg, mode] = process.argv.slice(2);
if (!first || !second || !portArg || (mode !== 'pin' && mode !== 'round-robin' && mode !== 'one')) {
  process.stderr.write('usage: replica-gateway.mjs <upstream-url> <upstream2-url> <port> pin|round-robin|one\n');
  process.exit(2);
}
const replicas = [new URL(first), new URL(second)];
/** Session id -> the replica that issued it. */
const owner = new Map();
/** Task id -> the replica that created it. */
const taskOwner = new Map();
let turn = 0;

const TASK_ID = /"taskId"\s*:\s*"((?:[^"\\]|\\.)*)"/g;
/** Longer than any `"taskId":"<id>"` the replicas send: what of a chunk is kept to find an id cut in two. */
const CARRY = 512;

/**
 * Reads the task ids in a response as it streams past (the gateway forwards every chunk at once;
 * this only looks at it) and pins each new one to `index`, the replica that answered.
 */
function learnTasks(answer, index) {
  if (answer.headers['content-encoding'] && answer.headers['content-encoding'] !== 'identity') return;
  const decoder = new StringDecoder('utf8');
  let tail = '';
  const scan = (text) => {
    const window = tail + text;
    for (const match of window.matchAll(TASK_ID)) {
      const taskId = JSON.parse(`"${match[1]}"`);
      if (!taskOwner.has(taskId)) taskOwner.set(taskId, index);
    }
    tail = window.slice(-CARRY);
  };
  answer.on('data', (chunk) => scan(decoder.write(chunk)));
  answer.on('end', () => scan(decoder.end()));
}

/** The replica a request is pinned to in pin mode, or `undefined` when it may go to either. */
function pinnedReplica(req) {
  if (mode !== 'pin') return undefined;
  const session = req.headers['mcp-session-id'];
  if (typeof session === 'string' && owner.has(session)) return owner.get(session);
  const method = req.headers['mcp-method'];
  const name = req.headers['mcp-name'];
  if (typeof method === 'string' && method.startsWith('tasks/') && typeof name === 'string') return taskOwner.get(name);
  return undefined;
}

const server = createServer((req, res) => {
  const index = mode === 'one' ? 0 : (pinnedReplica(req) ?? turn++ % replicas.length);
  const forward = forwardRequest(replicas[index], req, res, 'replica-gateway');
  forward.on('response', (answer) => {
    const issued = answer.headers['mcp-session-id'];
    if (typeof issued === 'string') owner.set(issued, index);
    if (mode === 'pin') learnTasks(answer, index);
  });
  req.pipe(forward);
});
server.listen(Number(portArg), '127.0.0.1');
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    server.close();
    server.closeAllConnections();
    process.exit(0);
  });
}
