#!/usr/bin/env node
// A gateway that misbehaves on purpose, for process tests.
//   node silent-gateway.mjs <port> [--ignore-term]
// It listens on 127.0.0.1:<port>, accepts connections and never answers; with --ignore-term it
// also ignores SIGTERM and SIGINT, so only SIGKILL stops it.
import { createServer } from 'node:net';

const [portArg, flag] = process.argv.slice(2);
if (flag === '--ignore-term') {
  process.on('SIGTERM', () => {});
  process.on('SIGINT', () => {});
}
const sockets = new Set();
createServer((socket) => {
  sockets.add(socket);
  socket.on('error', () => {});
}).listen(Number(portArg), '127.0.0.1');
