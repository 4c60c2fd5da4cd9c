import { expect, test } from 'vitest';
import type { Frame, Transcript } from '../transcript/frame.js';
import { GOLDEN_FORMAT } from '../transcript/frame.js';
import { sessionGolden, splitByEra } from './session-golden.js';

const header = {
  format: GOLDEN_FORMAT,
  protocolVersion: '2025-11-25',
  transport: 'stdio' as const,
  target: 'node server.js',
  recorder: 'mcp-golden test',
  notes: { recordedBy: 'recording proxy' },
};

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

let clock = 5_000_000;
const tick = (): number => {
  clock += 1000;
  return clock;
};
const line = (dir: Frame['dir'], exchange: number, message: object): Frame => ({
  t: tick(),
  dir,
  channel: 'stdio',
  exchange,
  raw: JSON.stringify(message),
});
const session = (frames: Frame[]): Transcript => ({ header, frames });

test('a legacy session: named by its calls, its first call in the header, its requests as steps, timed from its first frame', () => {
  const golden = sessionGolden(
    session([
      line('client->server', 1, {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18' },
      }),
      line('server->client', 1, { jsonrpc: '2.0', id: 0, result: {} }),
      line('client->server', 2, { jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      line('client->server', 3, {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'long output', arguments: { n: 1 }, _meta: { progressToken: 'p' } },
      }),
      line('server->client', 3, { jsonrpc: '2.0', id: 2, result: {} }),
      line('client->server', 4, { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'file:///x' } }),
      line('client->server', 5, { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'chatty' } }),
    ]),
  );
  expect(golden?.header).toMatchObject({
    era: 'legacy',
    protocolVersion: '2025-06-18',
    scenario: 'long-output-chatty',
    tool: 'long output',
    arguments: { n: 1 },
    notes: {
      recordedBy: 'recording proxy',
      steps: [
        { tool: 'long output', arguments: { n: 1 }, progressToken: 'p' },
        { method: 'resources/read', params: { uri: 'file:///x' } },
        { tool: 'chatty', arguments: {} },
      ],
    },
  });
  expect(golden?.frames.map((f) => f.t).slice(0, 2)).toEqual([0, 1000]);
});

test('a session that only asks the protocol version is no golden; one with a request besides is', () => {
  const probe = [
    line('client->server', 1, { jsonrpc: '2.0', id: 'p', method: 'server/discover', params: { _meta: ENVELOPE } }),
    line('server->client', 1, { jsonrpc: '2.0', id: 'p', result: { supportedVersions: ['2026-07-28'] } }),
  ];
  expect(sessionGolden(session(probe))).toBeUndefined();
  const listed = sessionGolden(
    session([
      ...probe,
      line('client->server', 2, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: ENVELOPE } }),
    ]),
  );
  expect(listed?.header).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28', scenario: 'tools-list' });
  expect(listed?.header.notes).not.toHaveProperty('steps');
});

test('a cancelled call is re-run cancelled after the progress the client saw', () => {
  const golden = sessionGolden(
    session([
      line('client->server', 1, { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }),
      line('client->server', 2, {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'progress', arguments: {}, _meta: { progressToken: 7 } },
      }),
      ...[1, 2].map((progress) =>
        line('server->client', 2, {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 7, progress },
        }),
      ),
      line('client->server', 2, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }),
      line('server->client', 2, {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 7, progress: 3 },
      }),
    ]),
  );
  expect(golden?.header.notes).toMatchObject({ steps: [{ tool: 'progress', progressToken: 7, cancelAfter: 2 }] });
});

test('splitByEra: a 2026-07-28 request and a 2025 session without session ids are two transcripts', () => {
  const frames = [
    line('client->server', 1, { jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: 'a', _meta: ENVELOPE } }),
    line('server->client', 1, { jsonrpc: '2.0', id: 0, result: {} }),
    line('client->server', 2, { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }),
    line('server->client', 2, { jsonrpc: '2.0', id: 0, result: {} }),
  ];
  const parts = splitByEra(session(frames));
  expect(parts.map((p) => p.frames.map((f) => f.exchange))).toEqual([
    [2, 2],
    [1, 1],
  ]);
  expect(splitByEra(session(frames.slice(2)))).toHaveLength(1);
});
