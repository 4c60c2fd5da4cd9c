import { describe, expect, test } from 'vitest';
import type { Frame, Transcript } from './frame.js';
import { keepRecordedTimes } from './keep-recorded-times.js';
import { serializeTranscript } from './serialize.js';

const header = {
  format: 'mcp-golden/1',
  protocolVersion: '2025-11-25',
  transport: 'http',
  target: 't',
  tool: 'x',
  arguments: {},
  recorder: 'mcp-golden 0',
} as Transcript['header'];

/** A small HTTP session: a request, a response head with a date and session id, three events, an end. */
function session(
  ms: readonly number[],
  texts: readonly string[],
  date = 'Mon, 23 Nov 2026 18:21:13 GMT',
  session = 'a1',
): Transcript {
  const at = (i: number): number => Math.round((ms[i] ?? 0) * 1000);
  const frames: Frame[] = [
    { channel: 'http', dir: 'client->server', exchange: 1, method: 'POST', url: '/mcp', headers: {}, t: at(0) },
    {
      channel: 'http',
      dir: 'server->client',
      exchange: 1,
      status: 200,
      headers: { date, 'mcp-session-id': session },
      t: at(1),
    },
    ...texts.map(
      (text, i) =>
        ({ channel: 'sse', dir: 'server->client', exchange: 1, raw: `data: ${text}\n\n`, t: at(2 + i) }) as Frame,
    ),
    { channel: 'end', dir: 'server->client', exchange: 1, reason: 'complete', t: at(2 + texts.length) },
  ];
  return { header, frames };
}

const changedLines = (a: Transcript, b: Transcript): number[] => {
  const x = serializeTranscript(a).split('\n');
  const y = serializeTranscript(b).split('\n');
  return y.flatMap((line, i) => (line === x[i] ? [] : [i]));
};

describe('keepRecordedTimes', () => {
  test('one changed text changes one line: the other frames keep their lines, times, date and session id', () => {
    const golden = session([0, 10, 20, 30, 40, 50], ['"one"', '"two"', '"three"']);
    const live = session([0, 12, 19, 33, 44, 52], ['"one"', '"TWO"', '"three"'], 'Tue, 24 Nov 2026 09:00:00 GMT', 'b2');
    const kept = keepRecordedTimes(golden, live);
    expect(changedLines(golden, kept)).toEqual([4]);
    // The changed frame keeps its distance (14 ms) from the kept frame before it (now at 20 ms).
    expect(kept.frames[3]).toEqual({ ...live.frames[3], t: 34_000 });
  });

  test('a frame whose time moved beyond the tolerance takes the new time, and the frames after it move with it', () => {
    const golden = session([0, 10, 20, 30, 40, 50], ['"one"', '"two"', '"three"']);
    const live = session([0, 10, 20, 200, 210, 220], ['"one"', '"two"', '"three"']);
    const kept = keepRecordedTimes(golden, live);
    expect(kept.frames.map((f) => f.t / 1000)).toEqual([0, 10, 20, 200, 210, 220]);
    expect(changedLines(golden, kept)).toEqual([4, 5, 6]);
  });

  test('times never go back, and frames added or removed are placed beside their neighbours', () => {
    const golden = session([0, 10, 20, 30, 40], ['"one"', '"two"']);
    const live = session([0, 10, 20, 25, 38, 41], ['"one"', '"new"', '"two"']);
    const kept = keepRecordedTimes(golden, live);
    const times = kept.frames.map((f) => f.t);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(kept.frames.map((f) => f.raw ?? f.channel)).toEqual(live.frames.map((f) => f.raw ?? f.channel));
    expect(kept.frames[4]?.t).toBe(30_000);
    expect(kept.frames[3]?.t).toBe(25_000);
  });

  test('keeps only the times when old lines would make the session ids disagree within the file', () => {
    const golden = session([0, 10, 20, 30], ['"one"']);
    const live = session([0, 10, 20, 30], ['"one"'], undefined, 'b2');
    // The live request after the response now carries the new session id and a changed URL.
    const withRequest = (t: Transcript, id: string, url: string): Transcript => ({
      header,
      frames: [
        ...t.frames,
        {
          channel: 'http',
          dir: 'client->server',
          exchange: 2,
          method: 'POST',
          url,
          headers: { 'mcp-session-id': id },
          t: 40_000,
        },
      ],
    });
    const kept = keepRecordedTimes(withRequest(golden, 'a1', '/mcp'), withRequest(live, 'b2', '/mcp?x'));
    expect(kept.frames.map((f) => f.headers?.['mcp-session-id']).filter(Boolean)).toEqual(['b2', 'b2']);
    expect(kept.frames.map((f) => f.t)).toEqual([0, 10_000, 20_000, 30_000, 40_000]);
  });
});
