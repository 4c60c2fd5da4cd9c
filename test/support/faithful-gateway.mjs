#!/usr/bin/env node
// A faithful gateway for process and soak tests: a byte-streaming HTTP reverse proxy.
//   node faithful-gateway.mjs <upstream-url> <port>
// Every request (method, path, headers, body) goes to the upstream; every response byte comes
// back as soon as it arrives, so progress streams live and Last-Event-ID reaches the upstream.
import { createServer } from 'node:http';
import { forwardRequest } from './forward-request.mjs';

const [upstreamArg, portArg] = process.argv.slice(2);
if (!upstreamArg || !portArg) {
  process.stderr.write('usage: faithful-gateway.mjs <upstream-url> <port>\n');
  process.exit(2);
}
const upstream = new URL(upstreamArg);

const server = createServer((req, res) => {
  req.pipe(forwardRequest(upstream, req, res, 'faithful-gateway'));
});
server.listen(Number(portArg), '127.0.0.1');
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    server.close();
    server.closeAllConnections();
    process.exit(0);
  });
}
