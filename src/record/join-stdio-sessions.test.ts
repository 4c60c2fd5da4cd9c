import { expect, test } from 'vitest';
import { type Frame, GOLDEN_FORMAT, type Transcript } from '../transcript/frame.js';
import { joinStdioSessions } from './join-stdio-sessions.js';

const line = (dir: Frame['dir'], t: number, message: object): Frame =>
  ({ dir, channel: 'stdio', exchange: 0, t, raw: `${JSON.stringify(message)}\n` }) as Frame;
const end = (dir: Frame['dir'], t: number): Frame =>
  ({ dir, channel: 'end', exchange: 0, t, reason: 'complete' }) as Frame;

const header = (target: string): Transcript['header'] => ({
  format: GOLDEN_FORMAT,
  era: 'modern',
  protocolVersion: '2026-07-28',
  transport: 'stdio',
  target,
  recorder: 'test',
});

const probe: Transcript = {
  header: header('probe'),
  frames: [
    line('client->server', 10, { jsonrpc: '2.0', id: 0, method: 'server/discover', params: {} }),
    line('server->client', 50, { jsonrpc: '2.0', id: 0, result: { supportedVersions: ['2026-07-28'] } }),
    end('client->server', 60),
    end('server->client', 70),
  ],
};
const used: Transcript = {
  header: header('used'),
  frames: [
    line('client->server', 5, { jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: 'x' } }),
    line('server->client', 40, { jsonrpc: '2.0', id: 0, result: { content: [] } }),
    end('client->server', 45),
    end('server->client', 46),
  ],
};

test('joins sessions in order, later times after earlier ones, only the last session ends, exchanges numbered across', () => {
  const joined = joinStdioSessions([probe, used]);
  expect(joined.header.target).toBe('used');
  expect(joined.frames.map((f) => [f.channel, f.dir, f.t, f.exchange])).toEqual([
    ['stdio', 'client->server', 10, 1],
    ['stdio', 'server->client', 50, 1],
    ['stdio', 'client->server', 56, 2],
    ['stdio', 'server->client', 91, 2],
    ['end', 'client->server', 96, 0],
    ['end', 'server->client', 97, 0],
  ]);
});

test('one session comes back as it was', () => {
  expect(joinStdioSessions([used]).frames.map((f) => [f.t, f.exchange])).toEqual([
    [5, 1],
    [40, 1],
    [45, 0],
    [46, 0],
  ]);
});
