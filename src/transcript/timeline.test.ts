import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { parseTranscript } from './parse.js';
import { formatTimeline, timelineStats } from './timeline.js';

const golden = async (name: string) =>
  parseTranscript(await readFile(new URL(`../../goldens/${name}.jsonl`, import.meta.url), 'utf8'));

describe('timelineStats: server messages per read', () => {
  test('counts SSE events of an HTTP golden', async () => {
    const stats = timelineStats(await golden('progress-10x100'));
    expect(stats.progress).toBe(10);
    expect(stats.maxEventsPerRead).toBeGreaterThanOrEqual(1);
  });

  test('counts stdio lines of a stdio golden, so its summary is not "at most 0"', async () => {
    const transcript = await golden('progress-stdio');
    const stats = timelineStats(transcript);
    expect(stats.progress).toBe(5);
    expect(stats.maxEventsPerRead).toBeGreaterThanOrEqual(1);
    expect(formatTimeline(transcript).at(-1)).toMatch(/at most [1-9]\d* server messages? in one read$/);
  });

  test('one of a kind is counted in the singular: "1 server message", "1 frame"', () => {
    const transcript = parseTranscript(
      `${[
        '{"format":"mcp-golden/1","transport":"stdio","target":"t","protocolVersion":"2025-11-25","recorder":"r","frames":2}',
        '{"channel":"read","dir":"server->client","exchange":1,"size":10,"t":1}',
        '{"channel":"stdio","dir":"server->client","exchange":1,"raw":"{\\"jsonrpc\\":\\"2.0\\",\\"method\\":\\"a\\"}\\n","t":2}',
      ].join('\n')}\n`,
    );
    expect(formatTimeline(transcript).at(-1)).toBe(
      '2 frames, 1 exchange, 0 progress notifications; at most 1 server message in one read',
    );
  });

  test('client reads do not reset the count of what one server read carried', () => {
    const transcript = parseTranscript(
      [
        '{"format":"mcp-golden/1","transport":"stdio","target":"t","protocolVersion":"2025-11-25","recorder":"r","frames":4}',
        '{"channel":"read","dir":"server->client","exchange":1,"size":10,"t":1}',
        '{"channel":"stdio","dir":"server->client","exchange":1,"raw":"{\\"jsonrpc\\":\\"2.0\\",\\"method\\":\\"a\\"}\\n","t":2}',
        '{"channel":"read","dir":"client->server","exchange":1,"size":10,"t":3}',
        '{"channel":"stdio","dir":"server->client","exchange":1,"raw":"{\\"jsonrpc\\":\\"2.0\\",\\"method\\":\\"b\\"}\\n","t":4}',
        '',
      ].join('\n'),
    );
    expect(timelineStats(transcript).maxEventsPerRead).toBe(2);
  });
});

describe('formatTimeline: the call line', () => {
  const line = (raw: string) =>
    JSON.stringify({ channel: 'stdio', dir: 'client->server', exchange: 1, raw: `${raw}\n`, t: 1 });
  const session = (...raws: string[]) =>
    parseTranscript(
      `${[
        `{"format":"mcp-golden/1","transport":"stdio","target":"t","protocolVersion":"2025-11-25","recorder":"r","frames":${raws.length}}`,
        ...raws.map(line),
      ].join('\n')}\n`,
    );

  test('a scenario golden names its call', async () => {
    expect(formatTimeline(await golden('progress-10x100'))[1]).toMatch(/^call: progress \{"step_ms":100,"steps":10\}/);
  });

  test('a session whose header names no call lists the calls it made, not "call: ? {}"', () => {
    const call = (id: number, name: string, args: string) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;
    const two = session(
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}',
      call(1, 'progress', '{"steps":3}'),
      call(2, 'chatty', '{}'),
    );
    expect(formatTimeline(two)[1]).toBe('calls: progress {"steps":3}, chatty {}');
    const seven = session(...[1, 2, 3, 4, 5, 6, 7].map((id) => call(id, 'chatty', '{}')));
    expect(formatTimeline(seven)[1]).toBe('calls: chatty {}, chatty {}, chatty {}, chatty {}, chatty {}, … and 2 more');
    expect(formatTimeline(session('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'))[1]).toBe(
      'calls: none (a session without tools/call)',
    );
  });
});
