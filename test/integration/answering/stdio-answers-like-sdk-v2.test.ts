import { PassThrough } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport as SdkV2StdioTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { describe, expect, test } from 'vitest';
import * as z from 'zod';
import { serveReferenceStdio } from '../../../src/server/stdio-server.js';

// Connections of lines sent alike to the SDK v2 2.4.0 stdio server (`serveStdio`, the reference) and
// to `serve --stdio` (serveReferenceStdio), in both eras' settings: the reference decides what is
// right, each answer is compared by its JSON-RPC error code (or "result", or no answer), so no case
// says what it expects. Over stdio the era is the connection's: the opening message picks it.

const PV = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const envelope = (version: unknown = '2026-07-28', extra: Record<string, unknown> = {}) => ({
  [PV]: version,
  [CAPS]: {},
  'io.modelcontextprotocol/clientInfo': { name: 'battery', version: '1' },
  ...extra,
});
type Line = Record<string, unknown>;
const request = (id: string, method: string, params?: Record<string, unknown>): Line => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params && { params }),
});
const discover = (id: string, meta: unknown = envelope()) => request(id, 'server/discover', { _meta: meta });
const initialize = (id: string) =>
  request(id, 'initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'battery', version: '1' },
  });
const call = (id: string, meta?: unknown) =>
  request(id, 'tools/call', {
    name: 'progress',
    arguments: { steps: 2, step_ms: 1 },
    ...(meta !== undefined && { _meta: meta }),
  });
const initialized: Line = { jsonrpc: '2.0', method: 'notifications/initialized' };

const CONNECTIONS: Record<string, Line[]> = {
  'pinned 2026-07-28: envelope rules, removed methods, an initialize': [
    discover('d1'),
    request('l1', 'tools/list', { _meta: envelope() }),
    request('l2', 'tools/list', {}),
    request('l3', 'tools/list', { _meta: { [PV]: '2026-07-28' } }),
    request('l4', 'tools/list', { _meta: envelope('2025-11-25') }),
    request('l5', 'tools/list', { _meta: envelope('2099-01-01') }),
    request('l6', 'tools/list', { _meta: envelope(7) }),
    request('p1', 'ping', { _meta: envelope() }),
    request('p2', 'ping', {}),
    request('s1', 'logging/setLevel', { level: 'info', _meta: envelope() }),
    initialize('i1'),
    request('u1', 'no/such/method', { _meta: envelope() }),
    call('c1', envelope('2026-07-28', { progressToken: 't' })),
    call('c2'),
    { jsonrpc: '2.0', id: 'r', result: {} },
    discover('d2'),
  ],
  'openings refused: a bad envelope, an unknown revision; then a good one': [
    discover('d1', { [PV]: '2026-07-28' }),
    discover('d2', envelope('2099-01-01')),
    request('x', 'tools/list', { _meta: envelope('2099-01-01') }),
    discover('d3'),
  ],
  'opened by initialize: a 2025 connection for its life': [
    initialize('i1'),
    initialized,
    request('l1', 'tools/list', {}),
    discover('d1'),
    request('l2', 'tools/list', { _meta: envelope() }),
    request('p', 'ping', {}),
  ],
  'opened without the envelope and without initialize': [
    request('l0', 'tools/list', {}),
    request('p', 'ping', {}),
    discover('d1'),
  ],
  'a probe, then the 2025 handshake': [discover('d1'), initialize('i1'), initialized, request('l1', 'tools/list', {})],
  'a probe, another, then a call': [discover('d1'), discover('d2'), call('c1', envelope())],
  'opened by a call with the envelope, no discover': [call('c1', envelope()), discover('d1'), initialize('i1')],
  'opened by a removed method under the envelope': [request('p', 'ping', { _meta: envelope() }), initialize('i1')],
  'a probe, then a line without the envelope': [discover('d'), request('u', 'no/such', {}), call('c')],
};

type Open = (stdin: PassThrough, stdout: PassThrough, legacy: 'serve' | 'reject') => Promise<() => Promise<void>>;

const reference: Open = async (stdin, stdout, legacy) => {
  const handle = serveStdio(
    () => {
      const server = new McpServer({ name: 'reference', version: '1.0.0' });
      server.registerTool(
        'progress',
        { inputSchema: z.object({ steps: z.number().int(), step_ms: z.number().int() }) },
        async ({ steps }) => ({ content: [{ type: 'text', text: String(steps) }] }),
      );
      return server;
    },
    { legacy, transport: new SdkV2StdioTransport(stdin, stdout) },
  );
  return () => handle.close();
};

const ours: Open = async (stdin, stdout, legacy) => {
  const served = await serveReferenceStdio({ stdin, stdout, legacy });
  return () => served.close();
};

/** Each request's answer on one connection: its error code, `result`, or `none` when none came within the wait. */
async function answers(open: Open, lines: readonly Line[], legacy: 'serve' | 'reject'): Promise<string[]> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const got = new Map<unknown, string>();
  const waiting = new Map<unknown, () => void>();
  let text = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => {
    text += chunk;
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n')) {
      const message = JSON.parse(text.slice(0, at)) as { id?: unknown; error?: { code: number } };
      text = text.slice(at + 1);
      if (message.id === undefined) continue;
      got.set(message.id, message.error ? String(message.error.code) : 'result');
      waiting.get(message.id)?.();
    }
  });
  const close = await open(stdin, stdout, legacy);
  const out: string[] = [];
  try {
    for (const line of lines) {
      const answered =
        typeof line.method === 'string' && 'id' in line
          ? new Promise<void>((resolve) => {
              waiting.set(line.id, resolve);
              setTimeout(resolve, 1500);
            })
          : new Promise<void>((resolve) => setTimeout(resolve, 30));
      stdin.write(`${JSON.stringify(line)}\n`);
      await answered;
      if (typeof line.method === 'string' && 'id' in line)
        out.push(`${line.id} ${line.method}: ${got.get(line.id) ?? 'none'}`);
    }
  } finally {
    await close();
  }
  return out;
}

describe('serve --stdio answers each connection as the SDK v2 2.4.0 serveStdio does', () => {
  for (const [legacy, era] of [
    ['serve', 'dual'],
    ['reject', 'modern'],
  ] as const) {
    for (const [name, lines] of Object.entries(CONNECTIONS)) {
      test(`--era ${era} (legacy: '${legacy}'): ${name}`, async () => {
        const expected = await answers(reference, lines, legacy);
        expect(await answers(ours, lines, legacy)).toEqual(expected);
      });
    }
  }
});
