import { createServer } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { closeNow, listenLoopback } from '../http/listen-loopback.js';
import { recordCall } from './record-call.js';

// A server that refuses every request with HTTP 400: the modern era's discover fails, and its reason is quoted.
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(400, { 'content-type': 'text/plain' }).end('bad request'));
});
let url: string;
beforeAll(async () => {
  url = `http://127.0.0.1:${await listenLoopback(server)}/mcp`;
});
afterAll(() => closeNow(server));

test('a refused server/discover is quoted in one sentence: no doubled period before "Expected"', async () => {
  const failure = recordCall(url, { name: 'refused', tool: 'x', era: 'modern' });
  await expect(failure).rejects.toThrow(
    /failed: HTTP 400: bad request\. Expected HTTP 200\. Expected server\/discover to offer 2026-07-28\./,
  );
  await expect(failure).rejects.not.toThrow(/\.\./);
});
