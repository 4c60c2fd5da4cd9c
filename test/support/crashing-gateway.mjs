#!/usr/bin/env node
// A gateway that crashes once, for the check's crash handling:
//   node crashing-gateway.mjs <upstream-url> <port> <marker-file> <tool> [always]
// A byte-streaming reverse proxy (as faithful-gateway.mjs) that, the first time a client calls
// `tool`, writes a last line to stderr and exits with code 3. The marker file remembers the crash,
// so the fresh process the check starts next forwards that call faithfully; with `always` every
// process crashes on that call.
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { forwardRequest } from './forward-request.mjs';

const [upstreamArg, portArg, marker, tool, always] = process.argv.slice(2);
if (!upstreamArg || !portArg || !marker || !tool) {
  process.stderr.write('usage: crashing-gateway.mjs <upstream-url> <port> <marker-file> <tool>\n');
  process.exit(2);
}
const upstream = new URL(upstreamArg);
process.stdout.write(`crashing-gateway: listening on ${portArg}\n`);

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    if ((always === 'always' || !existsSync(marker)) && body.includes(`"name":"${tool}"`)) {
      writeFileSync(marker, 'crashed\n');
      process.stderr.write(`crashing-gateway: panic on ${tool}: out of buffers\n`);
      process.exit(3);
    }
    forwardRequest(upstream, req, res, 'crashing-gateway').end(body);
  });
});
server.listen(Number(portArg), '127.0.0.1');
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    server.close();
    server.closeAllConnections();
    process.exit(0);
  });
}
