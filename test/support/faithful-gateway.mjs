#!/usr/bin/env node
// A faithful gateway for process and soak tests: a byte-streaming HTTP reverse proxy.
//   node faithful-gateway.mjs <upstream-url> <port>
// Every request (method, path, headers, body) goes to the upstream; every response byte comes
// back as soon as it arrives, so progress streams live and Last-Event-ID reaches the upstream.
import { createServer, request } from 'node:http';

const [upstreamArg, portArg] = process.argv.slice(2);
if (!upstreamArg || !portArg) {
  process.stderr.write('usage: faithful-gateway.mjs <upstream-url> <port>\n');
  process.exit(2);
}
const upstream = new URL(upstreamArg);

const server = createServer((req, res) => {
  const forward = request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      res.flushHeaders();
      answer.on('data', (chunk) => res.write(chunk));
      answer.on('end', () => res.end());
      answer.on('error', () => res.destroy());
    },
  );
  forward.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`faithful-gateway: upstream failed: ${error.message}\n`);
  });
  // A client that drops its stream drops the upstream stream too, as a real gateway would.
  res.on('close', () => forward.destroy());
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
