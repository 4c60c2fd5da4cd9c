import type { Server } from 'node:http';

/**
 * Starts `server` listening on 127.0.0.1 (port 0: the OS picks a free one) and resolves with the
 * port it got; a listen error (the port is taken) rejects instead of being thrown at the process.
 */
export function listenLoopback(server: Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

/** Stops `server` now: no new connections, open ones (idle keep-alive and streams alike) cut. */
export function closeNow(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
