import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type AuditEntry, AuditLog } from './audit-log.js';
import { connectReferenceServer, RunningCalls } from './reference-server.js';
import { CHATTY_BLOCKS, longOutputBlock } from './reference-tools.js';

let client: Client;
let audit: AuditLog;

beforeEach(async () => {
  audit = new AuditLog();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await connectReferenceServer(serverSide, { audit });
  client = new Client({ name: 'unit', version: '1.0.0' });
  await client.connect(clientSide);
});
afterEach(async () => {
  await client.close();
});

async function callError(name: string, args: unknown): Promise<McpError> {
  const error = await client.callTool({ name, arguments: args as Record<string, unknown> }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof McpError)) throw new Error(`expected an McpError, got ${String(error)}`);
  return error;
}

describe('argument validation', () => {
  test.each([
    ['progress', { steps: 0 }, '"steps" must be an integer from 1 to 100, got 0 (below the minimum 1)'],
    ['progress', { steps: 101 }, '"steps" must be an integer from 1 to 100, got 101 (above the maximum 100)'],
    ['progress', { steps: 2.5 }, '"steps" must be an integer from 1 to 100, got 2.5'],
    ['progress', { steps: '5' }, '"steps" must be an integer from 1 to 100, got the string "5"'],
    ['progress', { steps: null }, '"steps" must be an integer from 1 to 100, got null'],
    ['progress', { step_ms: 0 }, '"step_ms" must be an integer from 1 to 5000, got 0 (below the minimum 1)'],
    ['progress', { step_ms: 5001 }, '"step_ms" must be an integer from 1 to 5000, got 5001 (above the maximum 5000)'],
    ['progress', { step_ms: true }, '"step_ms" must be an integer from 1 to 5000, got the boolean true'],
    ['long_output', { blocks: 0 }, '"blocks" must be an integer from 1 to 50, got 0 (below the minimum 1)'],
    ['long_output', { blocks: 51 }, '"blocks" must be an integer from 1 to 50, got 51 (above the maximum 50)'],
    ['long_output', { chars: 0 }, '"chars" must be an integer from 1 to 65536, got 0 (below the minimum 1)'],
    [
      'long_output',
      { chars: 65537 },
      '"chars" must be an integer from 1 to 65536, got 65537 (above the maximum 65536)',
    ],
    ['long_output', { chars: [1] }, '"chars" must be an integer from 1 to 65536, got an array ([1])'],
    ['progress', { stpes: 3 }, 'unknown argument "stpes". Expected steps, step_ms'],
    ['chatty', { loud: true }, 'unknown argument "loud". Expected no arguments'],
  ])('%s %j is refused with invalid params naming field, bound and value', async (tool, args, expected) => {
    const error = await callError(tool, args);
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(`Invalid arguments for tool "${tool}": ${expected}`);
    const row = audit.entries().at(-1);
    expect(row).toMatchObject({ tool, outcome: 'error', done: false });
    expect(row?.error).toContain(expected);
  });

  test('an unknown tool gets the protocol error and the server keeps serving', async () => {
    const error = await callError('nope', {});
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('Unknown tool: "nope"');
    const result = await client.callTool({ name: 'chatty', arguments: {} });
    expect(result.content).toHaveLength(4);
  });
});

test('initialize names the server and the package version from package.json', async () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  expect(client.getServerVersion()).toEqual({ name: 'mcp-golden-reference', version: pkg.version });
});

describe('tool outputs', () => {
  test('defaults: progress 5 x 200 ms, long_output 3 x 256', async () => {
    const started = performance.now();
    const progress = await client.callTool({ name: 'progress', arguments: {} });
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(progress.structuredContent).toEqual({ steps: 5, notified: false, done: true });
    const long = await client.callTool({ name: 'long_output', arguments: {} });
    const texts = (long.content as { text: string }[]).map((c) => c.text);
    expect(texts).toEqual([0, 1, 2].map((n) => longOutputBlock(n, 256)));
    expect(texts.every((t) => t.length === 256)).toBe(true);
  });

  test('chatty returns the four exact blocks in order', async () => {
    const result = await client.callTool({ name: 'chatty', arguments: {} });
    expect(result.content).toEqual(CHATTY_BLOCKS.map((text) => ({ type: 'text', text })));
    expect(CHATTY_BLOCKS).toEqual([
      'first block: short',
      'second block: a slightly longer string with multiple words',
      'third block: numbers 1 2 3 4 5',
      'fourth block: unicode; café résumé naïve',
    ]);
  });
});

describe('longOutputBlock', () => {
  test('pads "[block n] " with abcdefghij to exactly chars characters', () => {
    expect(longOutputBlock(0, 30)).toBe('[block 0] abcdefghijabcdefghij');
    expect(longOutputBlock(12, 11)).toBe('[block 12] ');
    expect(longOutputBlock(3, 4)).toBe('[blo');
    expect(longOutputBlock(49, 65536)).toHaveLength(65536);
  });
});

describe('a cancel that names a request the connection is not running', () => {
  /** A raw connection: what the test sends, and a promise of the response with each id. */
  async function rawConnection() {
    const log = new AuditLog();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await connectReferenceServer(serverSide, { audit: log });
    const answered = new Map<unknown, () => void>();
    clientSide.onmessage = (message) => {
      if ('id' in message && !('method' in message)) answered.get(message.id)?.();
    };
    await clientSide.start();
    const send = (message: Record<string, unknown>) =>
      clientSide.send({ jsonrpc: '2.0', ...message } as Parameters<typeof clientSide.send>[0]);
    const call = async (id: string) => {
      const done = new Promise<void>((resolve) => answered.set(id, resolve));
      await send({ id, method: 'tools/call', params: { name: 'progress', arguments: { steps: 2, step_ms: 5 } } });
      await done;
    };
    const cancel = (id: string) => send({ method: 'notifications/cancelled', params: { requestId: id, reason: 'r' } });
    return { log, call, cancel, close: () => clientSide.close() };
  }

  test('one that came before its call is noted on the call, which runs: a server may ignore it', async () => {
    const c = await rawConnection();
    await c.cancel('early');
    await c.call('early');
    const [row] = c.log.entries();
    expect(row).toMatchObject({ requestId: 'early', outcome: 'result', cancelled: false, cancelReason: null });
    expect(row?.cancelBeforeCallMs).toBeGreaterThanOrEqual(0);
    await c.close();
  });

  test('one that came after its call ended is late: a later call with the same id is not marked', async () => {
    const c = await rawConnection();
    await c.call('again');
    await c.cancel('again');
    await c.call('again');
    expect(c.log.entries().map((r) => r.cancelBeforeCallMs)).toEqual([undefined, undefined]);
    await c.close();
  });
});

describe('RunningCalls: the cancels it keeps, on an injected clock', () => {
  const entry = {} as AuditEntry;

  test('a kept cancel is matched to its call within 10 s, and only once', () => {
    let now = 1000;
    const running = new RunningCalls(() => now);
    running.keepEarly('a', 'why');
    now += 250;
    expect(running.start('a', entry)).toEqual({ reason: 'why', ms: 250 });
    running.end('a');
    running.keepEarly('b', null);
    now += 10_001;
    expect(running.start('b', entry)).toBeUndefined();
  });

  test('the newest 32 are kept; a cancel naming a call that ended lately is not kept', () => {
    const running = new RunningCalls(() => 0);
    for (let i = 0; i < 33; i++) running.keepEarly(i, null);
    expect(running.start(0, entry)).toBeUndefined();
    expect(running.start(32, entry)).toEqual({ reason: null, ms: 0 });
    running.end(32);
    running.keepEarly(32, null);
    expect(running.start(32, entry)).toBeUndefined();
  });
});
