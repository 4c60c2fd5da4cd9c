#!/usr/bin/env node
// A gateway in front of two upstream replicas, for the check's session affinity row:
//   node replica-gateway.mjs <upstream-url> <upstream2-url> <port> pin|round-robin
// pin: a request with Mcp-Session-Id goes to the replica that issued that id (others alternate);
// round-robin: every request goes to the next replica, whatever its session.
import { createServer } from 'node:http';
import { forwardRequest } from './forward-request.mjs';

const [first, second, portArg, mode] = process.argv.slice(2);
if (!first || !second || !portArg || (mode !== 'pin' && mode !== 'round-robin')) {
  process.stderr.write('usage: replica-gateway.mjs <upstream-url> <upstream2-url> <port> pin|round-robin\n');
  process.exit(2);
}
const replicas = [new URL(first), new URL(second)];
const owner = new Map();
let turn = 0;

const server = createServer((req, res) => {
  const session = req.headers['mcp-session-id'];
  const pinned = mode === 'pin' && typeof session === 'string' ? owner.get(session) : undefined;
  const index = pinned ?? turn++ % replicas.length;
  const forward = forwardRequest(replicas[index], req, res, 'replica-gateway');
  forward.on('response', (answer) => {
    const issued = answer.headers['mcp-session-id'];
    if (typeof issued === 'string') owner.set(issued, index);
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
