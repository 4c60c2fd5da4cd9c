import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { serveReplayStdio } from '../../../src/replay/stdio-replay.js';
import { readGolden } from '../../../src/store/golden-file.js';
import { startCli } from '../../support/cli.js';

const GOLDENS = fileURLToPath(new URL('../../../goldens', import.meta.url));
const ANSWERS = new Set([200, 202, 400, 403, 404, 405, 406, 413, 415]);
/** A session id the hostile requests may use: set once the replayer handed one out. */
let knownSession = 'replay-session-1';

const printable = (s: string): string => s.replace(/[^\x20-\x7e]/g, '');
const headerValue = fc.oneof(
  fc.string().map(printable),
  fc.constantFrom('application/json', 'text/event-stream', 'application/json, text/event-stream', '*/*', ''),
);
const message = fc
  .record(
    {
      jsonrpc: fc.constantFrom('2.0', '1.0'),
      id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
      method: fc.oneof(
        fc.constantFrom(
          'initialize',
          'tools/call',
          'tools/list',
          'ping',
          'notifications/cancelled',
          'notifications/initialized',
        ),
        fc.string(),
      ),
      params: fc.jsonValue(),
      result: fc.jsonValue(),
    },
    { requiredKeys: [] },
  )
  .map((m) => JSON.stringify(m));
const body = fc.oneof(
  fc.string(),
  fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null'),
  message,
  fc.array(message, { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
);
const hostileRequest = fc.record({
  method: fc.constantFrom('POST', 'POST', 'POST', 'GET', 'DELETE', 'PUT', 'PATCH'),
  body,
  headers: fc.record(
    {
      accept: headerValue,
      'content-type': fc.oneof(headerValue, fc.constant('application/json')),
      origin: fc.oneof(
        fc.constantFrom('http://localhost:3000', 'https://evil.example', 'null'),
        fc.string().map(printable),
      ),
      'mcp-session-id': fc.oneof(
        fc.constant('known').map(() => knownSession),
        fc.constant('replay-session-1'),
        fc.string().map(printable),
      ),
      'last-event-id': fc.oneof(fc.constantFrom('1-1', '2-3', 'primed-1'), fc.string().map(printable)),
      'mcp-protocol-version': fc.constantFrom('2025-11-25', '2025-06-18', '2025-03-26', 'bogus'),
    },
    { requiredKeys: [] },
  ),
});

type HostileRequest = { method: string; body: string; headers: Record<string, string> };

/** Sends one request; resolves with its status once the head arrived and a little of the body was read. */
async function send(url: string, request: HostileRequest): Promise<number> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 5_000);
  try {
    const res = await fetch(url, {
      method: request.method,
      headers: request.headers,
      ...(request.method !== 'GET' && { body: request.body }),
      signal: abort.signal,
    });
    // A standalone GET stream never ends by itself: read what comes within a moment, then leave.
    const reading = res.text().catch(() => '');
    await Promise.race([reading, new Promise((resolve) => setTimeout(resolve, 200))]);
    return res.status;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

const rssBytes = async (pid: number): Promise<number> =>
  Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;

describe('hostile input (fast-check)', () => {
  test('random bodies and headers always get an answer; a valid client keeps being served, memory bounded', async () => {
    const replay = await startCli(['replay', GOLDENS, '--port', '0', '--pace', 'instant']);
    try {
      const client = new Client({ name: 'steady', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(replay.firstLine)));
      expect((await client.callTool({ name: 'chatty', arguments: {} })).content).toHaveLength(4);
      // Hostile requests also know a real session id (not the valid client's: ids are unguessable).
      const other = await fetch(replay.firstLine, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}',
      });
      knownSession = other.headers.get('mcp-session-id') as string;
      await other.text();
      const before = await rssBytes(replay.child.pid as number);
      await fc.assert(
        fc.asyncProperty(hostileRequest, async (request) => {
          const status = await send(replay.firstLine, request);
          expect(ANSWERS.has(status), `status ${status}`).toBe(true);
        }),
        { numRuns: 200 },
      );
      expect((await client.callTool({ name: 'chatty', arguments: {} })).content).toHaveLength(4);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('progress');
      await client.close();
      expect(replay.child.exitCode).toBeNull();
      expect((await rssBytes(replay.child.pid as number)) - before).toBeLessThan(64 * 1024 * 1024);
    } finally {
      await replay.stop();
    }
  }, 60_000);

  test('random stdio lines get an answer or are ignored, and a valid request is still answered', async () => {
    const golden = await readGolden(join(GOLDENS, 'chatty-stdio.jsonl'));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(body, fc.string()), { maxLength: 10 }), async (lines) => {
        const stdin = new PassThrough();
        const stdout = new PassThrough();
        let out = '';
        stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
        const replay = serveReplayStdio([golden], { stdin, stdout, pace: 'instant' });
        const safe = lines.map((l) => l.replace(/[\r\n]/g, ' '));
        stdin.end(`${[...safe, '{"jsonrpc":"2.0","id":"last","method":"ping"}'].join('\n')}\n`);
        await replay.closed;
        await new Promise((resolve) => setImmediate(resolve));
        const answers = out
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { id?: unknown });
        expect(answers.some((a) => a.id === 'last')).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});
