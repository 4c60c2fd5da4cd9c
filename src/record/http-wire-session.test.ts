import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, test } from 'vitest';
import { FrameSink } from './frame-sink.js';
import { openTarget } from './open-target.js';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** A server whose GET answers depend on Last-Event-ID: `hold` never answers, `none` is 405, `json` one JSON document, else an SSE stream. */
async function getServer() {
  const gets: IncomingHttpHeaders[] = [];
  const closed: string[] = [];
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    gets.push(req.headers);
    const mode = String(req.headers['last-event-id'] ?? 'stream');
    res.on('close', () => closed.push(mode));
    open.add(res);
    if (mode === 'hold') return;
    if (mode === 'none') {
      res.writeHead(405).end();
      return;
    }
    if (mode === 'json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"jsonrpc":"2.0","id":1,"result":{}}');
      return;
    }
    // `unlabelled`: an SSE stream without its content-type, as a gateway that drops it sends.
    res.writeHead(200, mode === 'unlabelled' ? {} : { 'content-type': 'text/event-stream' });
    res.flushHeaders();
    setTimeout(() => res.write('id: 8\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\n'), 60);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stops.push(async () => {
    for (const res of open) res.destroy();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  });
  return { port: (server.address() as AddressInfo).port, gets, closed };
}

async function until(done: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 5000;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

test("watch sends the session's headers and Last-Event-ID, is status 0 until headers come, and times each message", async () => {
  const server = await getServer();
  const opened = openTarget(`http://user:pw@127.0.0.1:${server.port}/mcp`, {
    sink: new FrameSink(),
    protocolVersion: '2025-11-25',
  });
  const watched = opened.session.watch?.({ lastEventId: '7' });
  expect(watched).toMatchObject({ status: 0, messages: [] });
  await until(() => (watched?.messages.length ?? 0) > 0, 'the message');
  expect(watched?.status).toBe(200);
  expect(watched?.messages[0]?.message).toEqual({ jsonrpc: '2.0', method: 'notifications/message', params: {} });
  expect(watched?.messages[0]?.atMs).toBeGreaterThanOrEqual(50);
  expect(server.gets[0]).toMatchObject({
    accept: 'text/event-stream',
    'last-event-id': '7',
    authorization: `Basic ${Buffer.from('user:pw').toString('base64')}`,
  });
  await opened.session.close();
  await until(() => server.closed.includes('7'), 'the stream to close');
});

test('a refused GET is its status with no messages; close() drops a GET whose headers never came', async () => {
  const server = await getServer();
  const opened = openTarget(`http://127.0.0.1:${server.port}/mcp`, {
    sink: new FrameSink(),
    protocolVersion: '2025-11-25',
  });
  const refused = opened.session.watch?.({ lastEventId: 'none' });
  await until(() => refused?.status !== 0, 'the 405');
  expect(refused).toEqual({ status: 405, messages: [] });
  const held = opened.session.watch?.({ lastEventId: 'hold' });
  await until(() => server.gets.length === 2, 'the held GET');
  expect(held?.status).toBe(0);
  await opened.session.close();
  await until(() => server.closed.includes('hold'), 'the held GET to be dropped');
  expect(held).toEqual({ status: 0, messages: [] });
  expect(opened.session.watch?.()).toEqual({ status: 0, messages: [] });
  expect(server.gets).toHaveLength(2);
});

test('a live stream without its content-type is read as SSE, a JSON body as its one message', async () => {
  const server = await getServer();
  const opened = openTarget(`http://127.0.0.1:${server.port}/mcp`, {
    sink: new FrameSink(),
    protocolVersion: '2025-11-25',
  });
  const unlabelled = opened.session.watch?.({ lastEventId: 'unlabelled' });
  const json = opened.session.watch?.({ lastEventId: 'json' });
  await until(() => (unlabelled?.messages.length ?? 0) > 0 && (json?.messages.length ?? 0) > 0, 'both messages');
  expect(unlabelled?.messages.map((m) => m.message.method)).toEqual(['notifications/message']);
  expect(json?.messages.map((m) => m.message)).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  await opened.session.close();
});
