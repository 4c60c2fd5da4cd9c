#!/usr/bin/env node
// A gateway that misbehaves on purpose, for process tests.
//   node silent-gateway.mjs <port> [--ignore-term | --exit-on-connect]
// It listens on 127.0.0.1:<port>, accepts connections and never answers; with --ignore-term it
// also ignores SIGTERM and SIGINT, so only SIGKILL stops it; with --exit-on-connect it writes
// "panic: first connection" to stderr and exits with code 5 on its first connection (a gateway that
// crashes before the first row).
import { createServer } from 'node:net';

const [portArg, flag] = process.argv.slice(2);
if (flag === '--ignore-term') {
  process.on('SIGTERM', () => {});
  process.on('SIGINT', () => {});
}
const sockets = new Set();
createServer((socket) => {
  if (flag === '--exit-on-connect') {
    process.stderr.write('panic: first connection\n');
    process.exit(5);
  }
  sockets.add(socket);
  socket.on('error', () => {});
}).listen(Number(portArg), '127.0.0.1');
