import { createServer } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, test } from 'vitest';
import { closeNow, listenLoopback } from './listen-loopback.js';

describe('listenLoopback', () => {
  test('listens on 127.0.0.1 at the port the OS picked, and closeNow cuts open connections', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    const port = await listenLoopback(server);
    expect(port).toBeGreaterThan(0);
    expect(server.address()).toMatchObject({ address: '127.0.0.1', port });
    const socket = connect({ host: '127.0.0.1', port });
    await new Promise((resolve) => socket.once('connect', resolve));
    const cut = new Promise((resolve) => socket.once('close', resolve));
    await closeNow(server);
    await cut;
    expect(server.listening).toBe(false);
  });

  test('rejects when the port is taken instead of throwing at the process', async () => {
    const first = createServer();
    const port = await listenLoopback(first);
    try {
      await expect(listenLoopback(createServer(), port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await closeNow(first);
    }
  });
});
