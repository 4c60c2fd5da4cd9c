import { createServer, type Socket } from 'node:net';

/**
 * The command a client starts in place of its stdio server: it joins its stdin and stdout to a
 * socket of the test's own process, so the replay or recording runs in the test (and stops with
 * it) while the client spawns and stops a process as it does in production. CommonJS, so it runs
 * under `node -e` from the package and from source alike.
 */
const RELAY = [
  "const socket = require('node:net').connect(Number(process.argv[1]), '127.0.0.1');",
  'process.stdin.pipe(socket);',
  'socket.pipe(process.stdout);',
  "socket.on('error', (e) => { process.stderr.write('[mcp-golden] useGolden stdio relay: ' + e.message + '\\n'); process.exitCode = 1; });",
  "socket.on('close', () => process.stdin.destroy());",
].join('\n');

/** A loopback socket a stdio client reaches through the relay command. */
export interface StdioEndpoint {
  /** The command the client starts (`node`). */
  readonly command: string;
  /** Its arguments: the relay and the port. */
  readonly args: string[];
  /** Closes the listener and every connection. */
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 and hands each client process that starts the relay to `onClient` as a socket. */
export async function startStdioEndpoint(onClient: (socket: Socket) => void): Promise<StdioEndpoint> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    // A client gone mid-write (EPIPE, reset) ends its session through 'close'; nothing to crash on.
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    onClient(socket);
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  });
  return {
    command: process.execPath,
    args: ['-e', RELAY, String(port)],
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
