import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { afterAll, describe, expect, test } from 'vitest';
import { startReferenceServer } from '../../src/server/http-server.js';
import { CLI } from '../support/cli.js';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bounds', version: '1' } },
};
const headers = (extra: Record<string, string> = {}): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  ...extra,
});

async function post(url: string, body: unknown, extra: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: headers(extra), body: JSON.stringify(body) });
}

/** Opens a session; returns its id. */
async function open(url: string, extra: Record<string, string> = {}): Promise<string> {
  const response = await post(url, INIT, extra);
  await response.text();
  expect(response.status).toBe(200);
  return response.headers.get('mcp-session-id') as string;
}

/**
 * Opens a session with node:http over up to `agent.maxSockets` kept-alive connections: for the
 * 5,000 sessions below, a third of fetch's client CPU (1.1 s instead of 3.2 s), which the server's
 * bounds do not depend on. Returns the session id.
 */
function openOver(agent: Agent, url: string): Promise<string> {
  const body = JSON.stringify(INIT);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { ...headers(), 'content-length': String(Buffer.byteLength(body)) } },
      (response) => {
        response.resume();
        response.on('error', reject);
        response.on('end', () => {
          const id = response.headers['mcp-session-id'];
          if (response.statusCode !== 200 || typeof id !== 'string')
            reject(new Error(`initialize answered ${response.statusCode} with session id ${String(id)}`));
          else resolve(id);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops) await stop();
});

describe('serve is bounded', () => {
  test('5,000 idle sessions fit in a 128 MB heap: the least recently used ones are closed', async () => {
    // Without the cap each session (an SDK server, a transport, an event store) stays forever: the
    // first one still answers instead of 404, and memory grows with every session (about 7 KB each
    // since the sessions share one JSON Schema validator; while each built its own, 5,000 of them
    // exhausted a 128 MB heap).
    const child = spawn(process.execPath, ['--max-old-space-size=128', CLI, 'serve', '--max-sessions', '200'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    stops.push(async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await gone;
      }
    });
    const url = await new Promise<string>((resolve) => child.stdout.once('data', (d) => resolve(String(d).trim())));
    const ids: string[] = [];
    let next = 0;
    const agent = new Agent({ keepAlive: true, maxSockets: 20 });
    const worker = async (): Promise<void> => {
      while (next < 5000) {
        next++;
        ids.push(await openOver(agent, url));
      }
    };
    try {
      await Promise.all(Array.from({ length: 20 }, worker));
    } finally {
      agent.destroy();
    }
    expect(ids).toHaveLength(5000);
    expect(child.exitCode).toBeNull();
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]);
    expect(rssKb / 1024).toBeLessThan(250);
    const first = await post(
      url,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { 'mcp-session-id': ids[0] as string },
    );
    expect(first.status).toBe(404);
    expect(await first.text()).toContain('Send initialize to start a new session');
    const last = await post(
      url,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { 'mcp-session-id': ids.at(-1) as string, 'mcp-protocol-version': '2025-06-18' },
    );
    expect(last.status).toBe(200);
    expect(await last.text()).toContain('long_output');
  }, 120_000);

  test('an idle session expires after its TTL; its id then gets 404', async () => {
    const server = await startReferenceServer({ sessionTtlMs: 200 });
    stops.push(() => server.close());
    const id = await open(server.url);
    expect(server.sessions()).toEqual([id]);
    const deadline = Date.now() + 5000;
    while (server.sessions().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(server.sessions()).toEqual([]);
    const response = await post(server.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': id });
    expect(response.status).toBe(404);
  });

  test('Origin: loopback and listed origins pass, others get 403', async () => {
    const server = await startReferenceServer({ allowedOrigins: ['https://app.example'] });
    stops.push(() => server.close());
    await open(server.url, { origin: 'http://localhost:5173' });
    await open(server.url, { origin: 'https://app.example' });
    await open(server.url);
    const evil = await post(server.url, INIT, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(await evil.text()).toContain('Origin \\"https://evil.example\\" is not allowed');
    expect(server.sessions()).toHaveLength(3);
  });

  test('non-object arguments are invalid params (-32602), not an internal error', async () => {
    const server = await startReferenceServer();
    stops.push(() => server.close());
    const id = await open(server.url);
    const session = { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' };
    await (await post(server.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
    for (const args of ['steps=3', 3, [1, 2], null]) {
      const response = await post(
        server.url,
        { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'progress', arguments: args } },
        session,
      );
      const text = await response.text();
      const data = JSON.parse(text.includes('data: ') ? (/data: (.*)/.exec(text)?.[1] as string) : text);
      expect(data.error?.code, `arguments ${JSON.stringify(args)}: ${text}`).toBe(-32602);
    }
  });
});
