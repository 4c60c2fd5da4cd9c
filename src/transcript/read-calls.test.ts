import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { callTwiceWithOneToken } from '../../test/support/call-twice.js';
import { readGolden } from '../store/golden-file.js';
import { type Frame, GOLDEN_FORMAT, type Transcript } from './frame.js';
import { progressOf } from './json-rpc.js';
import { type Call, readCalls, readToolCall } from './read-calls.js';

const golden = (name: string): Promise<Transcript> =>
  readGolden(fileURLToPath(new URL(`../../goldens/${name}.jsonl`, import.meta.url)));

/** A stdio session from lines: `>` client to server, `<` server to client, `read` a server read; t in µs. */
function stdio(lines: readonly [number, '>' | '<' | 'read', number, object?][]): Transcript {
  const frames: Frame[] = lines.map(([t, way, exchange, message]) =>
    way === 'read'
      ? { t, dir: 'server->client', channel: 'read', exchange, size: 1 }
      : {
          t,
          dir: way === '>' ? 'client->server' : 'server->client',
          channel: 'stdio',
          exchange,
          raw: `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`,
        },
  );
  return {
    header: { format: GOLDEN_FORMAT, protocolVersion: '2025-11-25', transport: 'stdio', target: 'x', recorder: 'x' },
    frames,
  };
}

const call = (id: number, token?: string) => ({
  id,
  method: 'tools/call',
  params: { name: 'progress', arguments: {}, ...(token !== undefined && { _meta: { progressToken: token } }) },
});
const progress = (token: string, value: number) => ({
  method: 'notifications/progress',
  params: { progressToken: token, progress: value },
});
const result = (id: number) => ({ id, result: { content: [] } });
const cancel = (id: number) => ({ method: 'notifications/cancelled', params: { requestId: id } });
const values = (c: Call | undefined): unknown[] => (c?.progress ?? []).map((p) => progressOf(p.message)?.progress);

describe('readCalls', () => {
  test('two sequential calls reusing a token each get their own progress and response', async () => {
    const { calls } = readCalls(callTwiceWithOneToken(await golden('progress-10x100')));
    const toolCalls = calls.filter((c) => c.request?.method === 'tools/call');
    expect(toolCalls.map((c) => [c.request?.id, c.token])).toEqual([
      [1, 'golden-progress-1'],
      [2, 'golden-progress-1'],
    ]);
    for (const c of toolCalls) {
      expect(values(c)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(c.response?.message.id).toBe(c.request?.id);
      expect(c.progress.every((p) => p.order > c.order && p.order < (c.response?.order ?? 0))).toBe(true);
    }
  });

  test('a cancel ends a call: a later call reusing its token gets the progress that follows', () => {
    const lines: [number, '>' | '<' | 'read', number, object?][] = [
      [0, '>', 1, call(1, 'k')],
      [10, '<', 1, progress('k', 1)],
      [20, '>', 2, cancel(1)],
      [30, '>', 3, call(2, 'k')],
      [40, '<', 3, progress('k', 1)],
      [50, '<', 3, progress('k', 2)],
      [60, '<', 3, result(2)],
    ];
    const [first, second] = readCalls(stdio(lines)).calls;
    expect(values(first)).toEqual([1]);
    expect(first?.cancelAtMs).toBe(0.02);
    expect(values(second)).toEqual([1, 2]);
    expect(second?.progress.map((p) => p.atMs)).toEqual([0.01, 0.02]);
    // Without the cancel the first call is still open, and the token is still its own.
    const open = readCalls(stdio(lines.filter(([t]) => t !== 20))).calls;
    expect(values(open[0])).toEqual([1, 1, 2]);
    expect(values(open[1])).toEqual([]);
  });

  test('progress after a call ended, before the next call with its token, stays with the ended call', () => {
    const { calls } = readCalls(
      stdio([
        [0, '>', 1, call(1, 'k')],
        [10, '<', 1, result(1)],
        [20, '<', 1, progress('k', 1)],
        [30, '>', 2, call(2, 'k')],
        [40, '<', 2, progress('k', 1)],
      ]),
    );
    expect(calls.map(values)).toEqual([[1], [1]]);
    expect(calls[0]?.progress[0]?.order).toBeGreaterThan(calls[0]?.response?.order ?? 0);
  });

  test('progress with a token no request sent is stray: credited by its stream, or to no call before any request', () => {
    const { calls, stray } = readCalls(
      stdio([
        [0, '<', 0, progress('nobody', 1)],
        [10, '>', 1, call(1)],
        [20, '>', 2, call(2, 'k')],
        [30, '<', 1, progress('wrong', 1)],
        [40, '<', 2, progress('k', 1)],
      ]),
    );
    expect(stray.map((s) => [progressOf(s.arrival.message)?.progressToken, s.call?.request?.id])).toEqual([
      ['nobody', undefined],
      ['wrong', 1],
    ]);
    expect(values(calls[0])).toEqual([1]);
    expect(values(calls[1])).toEqual([1]);
  });

  test('counts reads from the request on and the most of the call’s messages one read completed', () => {
    const toolCall = readToolCall(
      stdio([
        [0, '>', 1, call(1, 'k')],
        [5, 'read', 1],
        [6, '<', 1, progress('k', 1)],
        [7, 'read', 1],
        [8, '<', 1, progress('k', 2)],
        [8, '<', 1, progress('k', 3)],
        [8, '<', 1, result(1)],
      ]),
    );
    expect(toolCall.reads).toBe(2);
    expect(toolCall.maxMessagesPerRead).toBe(3);
    expect(toolCall.progress.map((p) => p.read)).toEqual([0, 1, 1]);
    expect(toolCall.response?.read).toBe(1);
  });

  test('a transcript without a tools/call reads as the empty call', () => {
    const empty = readToolCall(stdio([[0, '>', 1, { id: 1, method: 'tools/list' }]]));
    expect(empty.request).toBeUndefined();
    expect(empty.progress).toEqual([]);
  });
});
