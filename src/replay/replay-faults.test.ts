import { afterEach, describe, expect, it } from 'vitest';
import { clientCheckGolden } from '../client-check/goldens.js';
import { chunkSseEvent } from './chunking.js';
import type { ResponseSink } from './http-exchange.js';
import { FaultFront, type ReplayFaults } from './replay-faults.js';
import { createReplayServer, type ReplayServer } from './replay-server.js';

const EVENT = 'event: message\nid: 1-2\ndata: {"jsonrpc":"2.0","id":1,"result":{"text":"café"}}\n\n';
const text = (pieces: Uint8Array[]): string => Buffer.concat(pieces).toString('utf8');

describe('chunking for client faults', () => {
  it('ends lines with a lone CR', () => {
    expect(text(chunkSseEvent(EVENT, { cr: true }, false))).toBe(EVENT.replaceAll('\n', '\r'));
  });
  it('leaves out the event: line', () => {
    expect(text(chunkSseEvent(EVENT, { noEventField: true }, false))).toBe(EVENT.replace('event: message\n', ''));
  });
  it('writes the JSON over several data: lines that join back to the same message', () => {
    const out = text(chunkSseEvent(EVENT, { multilineData: true }, false));
    const data = out.split('\n').filter((l) => l.startsWith('data: '));
    expect(data.length).toBeGreaterThan(3);
    expect(JSON.parse(data.map((l) => l.slice(6)).join('\n'))).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { text: 'café' },
    });
  });
  it("cuts inside every multi-byte character with splitUtf8: 'every'", () => {
    const pieces = chunkSseEvent('data: é ï ü\n\n', { splitUtf8: 'every' }, false);
    expect(pieces).toHaveLength(4);
    for (const piece of pieces.slice(0, -1)) expect(piece.at(-1)).toBeGreaterThanOrEqual(0xc0);
  });
  it('writes at most writeBytes bytes at a time', () => {
    const pieces = chunkSseEvent(`data: ${'x'.repeat(5000)}\n\n`, { writeBytes: 1024 }, false);
    expect(pieces.map((p) => p.length)).toEqual([1024, 1024, 1024, 1024, 5008 - 4096]);
  });
  it('gives the priming event its retry field', () => {
    expect(text(chunkSseEvent(EVENT, { primingEvents: true, primingRetryMs: 500 }, true, 'p-1'))).toBe(
      `id: p-1\nretry: 500\ndata: \n\n${EVENT}`,
    );
  });
});

const CALLS = [{ name: 'progress' as const, arguments: { steps: 3, step_ms: 20 }, steps: 3, stepMs: 20 }];
const JSON_SSE = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(faults: ReplayFaults): Promise<ReplayServer> {
  server = await createReplayServer(clientCheckGolden('faults', CALLS), { faults });
  return server;
}

async function initialize(url: string): Promise<string> {
  const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } };
  const response = await fetch(url, {
    method: 'POST',
    headers: JSON_SSE,
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params }),
  });
  await response.text();
  return response.headers.get('mcp-session-id') as string;
}

/** One tools/call in the session; its status and each read of its body. */
async function call(url: string, session: string, id = 1): Promise<{ status: number; reads: string[] }> {
  const params = { name: 'progress', arguments: { steps: 3, step_ms: 20 }, _meta: { progressToken: 't' } };
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...JSON_SSE, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
  });
  const reads: string[] = [];
  const decoder = new TextDecoder();
  const reader = response.body?.getReader();
  for (let read = await reader?.read(); read && !read.done; read = await reader?.read())
    reads.push(decoder.decode(read.value, { stream: true }));
  return { status: response.status, reads };
}

describe('the fault front', () => {
  it('answers the nth call with the HTTP status and audits it', async () => {
    const { url, audit } = await start({ failCall: { nth: 1, status: 503 } });
    const session = await initialize(url);
    expect((await call(url, session)).status).toBe(503);
    expect((await call(url, session, 2)).status).toBe(200);
    expect(
      audit()
        .filter((r) => r.call !== undefined)
        .map((r) => [r.call, r.status, r.fault]),
    ).toEqual([
      [1, 503, 'HTTP 503'],
      [2, 200, undefined],
    ]);
  });
  it('answers 404 to the session once it answered sessionGoneAfter calls', async () => {
    const { url } = await start({ sessionGoneAfter: 1 });
    const session = await initialize(url);
    expect((await call(url, session)).status).toBe(200);
    expect((await call(url, session, 2)).status).toBe(404);
    expect((await call(url, await initialize(url), 3)).status).toBe(200);
  });
  it('ends the cut call after its first progress, with no event id left', async () => {
    const { url, audit } = await start({ cutCall: { nth: 1, after: 'progress', stripIds: true } });
    const { reads } = await call(url, await initialize(url));
    const body = reads.join('');
    expect(body.match(/notifications\/progress/g)).toHaveLength(1);
    expect(body).not.toMatch(/^id:/m);
    expect(body).not.toContain('"result"');
    expect(audit().find((r) => r.call === 1)?.endedAt).toBeTypeOf('number');
  });
  it('writes the last progress and the result in one write', async () => {
    const { url } = await start({ coalesceFinal: true });
    const { reads } = await call(url, await initialize(url));
    const last = reads.at(-1) ?? '';
    expect(last).toContain('"progress":3');
    expect(last).toContain('"result"');
    expect(reads.join('').match(/notifications\/progress/g)).toHaveLength(3);
    expect(reads.filter((r) => r.includes('"progress":1')).every((r) => !r.includes('"result"'))).toBe(true);
  });
  it('answers a flapping GET 200 and ends it at once, and drops the first resumption', async () => {
    const { url, audit } = await start({ flapGets: true, dropResumes: 1 });
    const session = await initialize(url);
    const headers = { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const get = await fetch(url, { headers });
    expect([get.status, await get.text()]).toEqual([200, '']);
    const resume = await fetch(url, { headers: { ...headers, 'last-event-id': 'x' } });
    expect([resume.status, await resume.text()]).toEqual([200, '']);
    expect(
      audit()
        .filter((r) => r.httpMethod === 'GET')
        .map((r) => r.fault),
    ).toEqual(['GET answered and closed at once', 'resumption dropped before any event']);
  });
});

describe('the audit of what a response carried', () => {
  const sink = (): ResponseSink => ({ head() {}, write() {}, end() {}, onClose() {} });
  const admitted = () => {
    const front = new FaultFront();
    const request = { httpMethod: 'POST', headers: {}, body: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}' };
    return { watched: front.admit(request, sink())?.sink as ResponseSink, entry: () => front.requests[0] };
  };
  const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text));

  it('notes the first progress and the result in text, Buffers and plain byte arrays', () => {
    for (const form of [(t: string) => t, (t: string) => Buffer.from(t), bytes]) {
      const { watched, entry } = admitted();
      watched.write(form('event: message\ndata: {"kind":"result","text":"notifications"}\n\n'));
      expect([entry()?.firstProgressAt, entry()?.resultAt]).toEqual([undefined, undefined]);
      watched.write(form('data: {"method":"notifications/progress","params":{"progress":1}}\n\n'));
      expect([typeof entry()?.firstProgressAt, entry()?.resultAt]).toEqual(['number', undefined]);
      watched.write(form('data: {"jsonrpc":"2.0","id":1,"error"\n :{"code":1}}\n\n'));
      expect(entry()?.resultAt).toBeTypeOf('number');
    }
  });
  it('reads a key without its colon as no result, and finds a result among the pieces of one write', () => {
    const { watched, entry } = admitted();
    watched.write(bytes('data: {"id":1,"note":"result","text":"\\"error\\" is a word"}\n\n'));
    expect(entry()?.resultAt).toBeUndefined();
    watched.writeAll?.([bytes('data: {"id":1,'), bytes('"result":{}}\n\n')]);
    expect(entry()?.resultAt).toBeTypeOf('number');
  });
  it('finds a member whose key is followed by JSON whitespace, after the same key as a word', () => {
    const { watched, entry } = admitted();
    watched.write(bytes('data: {"note":"\\"error\\"","x":1}\n\n'));
    expect(entry()?.resultAt).toBeUndefined();
    watched.write(bytes('data: {"text":"a \\"result\\" word","id":1,"result" \r\n\t:{}}\n\n'));
    expect(entry()?.resultAt).toBeTypeOf('number');
  });
});
