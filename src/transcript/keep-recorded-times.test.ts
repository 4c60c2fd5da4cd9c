import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { compareTranscripts } from './compare.js';
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

/** One exchange's frames, at offsets (ms) from `at`: `[channel, dir, offset, raw?]`. */
type Row = [Frame['channel'], 'c' | 's', number, string?];
function exchanges(...parts: [number, Row[]][]): Transcript {
  const frames = parts.flatMap(([at, rows], e) =>
    rows.map(([channel, dir, ms, raw]): Frame => {
      const frame = {
        channel,
        dir: dir === 'c' ? 'client->server' : 'server->client',
        exchange: e + 1,
        t: Math.round((at + ms) * 1000),
      } as const;
      if (channel === 'http') return { ...frame, ...(dir === 'c' ? { method: 'POST', url: '/mcp' } : { status: 200 }) };
      if (channel === 'end') return { ...frame, reason: 'complete' };
      if (channel === 'read') return { ...frame, size: (raw ?? '').length };
      return { ...frame, raw: raw ?? '' };
    }),
  );
  return { header, frames };
}

/** Offsets (ms) of each frame from the start of its exchange. */
const offsets = (t: Transcript): number[] => {
  const starts = new Map<number, number>();
  return t.frames.map((f) => {
    if (!starts.has(f.exchange)) starts.set(f.exchange, f.t);
    return (f.t - (starts.get(f.exchange) ?? 0)) / 1000;
  });
};

/**
 * Frames whose content is the golden's and whose line changed although the offset written is within
 * the tolerance, up to the first frame written off time (the frames after it may move with it).
 */
const unexplained = (golden: Transcript, kept: Transcript): number[] => {
  const [was, is] = [offsets(golden), offsets(kept)];
  const out: number[] = [];
  for (const [i, f] of kept.frames.entries()) {
    const old = golden.frames[i];
    if (!old || JSON.stringify({ ...old, t: 0 }) !== JSON.stringify({ ...f, t: 0 }) || old.t === f.t) continue;
    if (Math.abs((is[i] as number) - (was[i] as number)) > Math.max(20, 0.5 * (was[i] as number))) break;
    out.push(i);
  }
  return out;
};

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
    // The changed frame arrived within the tolerance of the frame it replaced: it keeps that time.
    expect(kept.frames[3]).toEqual({ ...live.frames[3], t: 30_000 });
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

  // The shapes below are from e2e runs (test/e2e/reviewable-updates) that rewrote lines within the tolerance.
  test('a changed frame that arrived a few ms after the frame before it does not push the on-time frames after it', () => {
    const call = (text: string, sse: number, end: number): Row[] => [
      ['http', 'c', 0],
      ['http', 's', sse === 7.97 ? 7.655 : 2.011],
      ['read', 's', sse === 7.97 ? 7.907 : 2.209, 'x'.repeat(212)],
      ['sse', 's', sse, `data: ${text}\n\n`],
      ['end', 's', end],
    ];
    const close: Row[] = [
      ['http', 'c', 0],
      ['http', 's', 1.1],
      ['end', 's', 1.3],
    ];
    const golden = exchanges([26.5, call('"report on"', 7.97, 8.101)], [34.719, close]);
    const live = exchanges([23.2, call('"Report on"', 6.283, 6.481)], [29.8, close]);
    const kept = keepRecordedTimes(golden, live);
    expect(changedLines(golden, kept)).toEqual([4]);
    expect(unexplained(golden, kept)).toEqual([]);
  });

  test('a frame that arrived earlier than the tolerance allows is written at its clamp, not kept because the clamp is near', () => {
    const notify = (head: number, end: number): Row[] => [
      ['http', 'c', 0],
      ['http', 's', head],
      ['end', 's', end],
    ];
    const after: Row[] = [['http', 'c', 0]];
    const golden = exchanges([34.525, notify(17.577, 29.804)], [65.096, after]);
    const live = exchanges([40.939, notify(3.139, 3.619)], [44.943, after]);
    const kept = keepRecordedTimes(golden, live);
    // The end arrived 26 ms early. Clamped behind the head (kept within its tolerance) it is 12 ms early,
    // but the arrival is judged: written at the clamp, so the file passes the compare with the recording.
    expect(changedLines(golden, kept)).toEqual([3]);
    expect(compareTranscripts(live, kept, { timing: {} }).timing).toEqual([]);
  });

  test('a frame judged late against its exchange start is placed by that start, and later exchanges keep their offsets', () => {
    const init = (body: number, head: number, end: number, version: string): Row[] => [
      ['http', 'c', 0],
      ['json', 'c', body, '{"method":"initialize"}'],
      ['http', 's', head],
      ['read', 's', head + 0.5, version],
      ['sse', 's', head + 0.6, `data: ${version}\n\n`],
      ['end', 's', end],
    ];
    const notify = (head: number, end: number): Row[] => [
      ['http', 'c', 0],
      ['http', 's', head],
      ['end', 's', end],
    ];
    const golden = exchanges([2, init(0.5, 39, 40.9, '"v1"')], [43.4, notify(17.065, 25.4)]);
    // The client sent its body 2 ms slower; the head came 20.2 ms late from the start (1 ms late from the body).
    const live = exchanges([0, init(2.5, 59.2, 59.9, '"text-changed"')], [60.3, notify(17.5, 25)]);
    const kept = keepRecordedTimes(golden, live);
    // The head arrived 20.2 ms late (1 ms over the tolerance): written at its clamp before the on-time end.
    expect(changedLines(golden, kept)).toEqual([3, 4, 5]);
    expect(compareTranscripts(live, kept, { timing: {} }).timing).toEqual([]);
    // Had the head been written 20.2 ms late, the exchange after it would start later and keep its offsets.
    const later = keepRecordedTimes(golden, exchanges([0, init(2.5, 59.2, 80, '"v1"')], [80.4, notify(17.5, 25)]));
    expect(offsets(later).slice(6)).toEqual([0, 17.065, 25.4]);
    expect(unexplained(golden, later)).toEqual([]);
  });
});

describe('keepRecordedTimes: what it writes passes the timing compare against the recording it came from', () => {
  /** A session: an initialize exchange, then two tools/call exchanges streaming `events[i]` SSE events each. */
  const sessionOf = (times: readonly (readonly number[])[], texts: readonly (readonly string[])[]): Transcript => {
    const frames: Frame[] = [];
    let at = 0;
    times.forEach((offsets, i) => {
      const exchange = i + 1;
      const method = i === 0 ? 'initialize' : 'tools/call';
      const body = JSON.stringify({ jsonrpc: '2.0', id: i, method, params: {} });
      const t = (ms: number): number => Math.round((at + ms) * 1000);
      frames.push(
        { channel: 'http', dir: 'client->server', exchange, method: 'POST', url: '/mcp', headers: {}, t: t(0) },
        { channel: 'json', dir: 'client->server', exchange, raw: body, t: t(0) },
        { channel: 'http', dir: 'server->client', exchange, status: 200, headers: {}, t: t(offsets[0] ?? 0) },
        ...(texts[i] ?? []).map(
          (text, k): Frame => ({
            channel: 'sse',
            dir: 'server->client',
            exchange,
            raw: `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { text } })}\n\n`,
            t: t(offsets[k + 1] ?? 0),
          }),
        ),
        { channel: 'end', dir: 'server->client', exchange, reason: 'complete', t: t(offsets.at(-1) ?? 0) },
      );
      at += (offsets.at(-1) ?? 0) + 1;
    });
    return { header, frames };
  };
  /** Offsets (ms) of a head, `events` events and an end, in order, each from the exchange's request. */
  const offsetsOf = (events: number) =>
    fc
      .array(fc.integer({ min: 0, max: 400_000 }), { minLength: events + 2, maxLength: events + 2 })
      .map((list) => list.sort((a, b) => a - b).map((us) => us / 1000));
  const updates = fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 3, maxLength: 3 }).chain((events) =>
    fc.record({
      texts: fc.constant(events.map((n, i) => Array.from({ length: n }, (_, k) => `event ${i}.${k}`))),
      golden: fc.tuple(...events.map(offsetsOf)),
      live: fc.tuple(...events.map(offsetsOf)),
      changed: fc.option(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.nat()), { nil: undefined }),
    }),
  );

  test('every judged frame of a random 2-call update is within the tolerance of its arrival', () => {
    fc.assert(
      fc.property(updates, ({ texts, golden, live, changed }) => {
        const liveTexts = texts.map((list, i) =>
          list.map((text, k) => (changed && changed[0] === i && changed[1] % list.length === k ? `${text}!` : text)),
        );
        const recorded = sessionOf(live, liveTexts);
        const kept = keepRecordedTimes(sessionOf(golden, texts), recorded);
        const comparison = compareTranscripts(recorded, kept, { timing: {} });
        expect(comparison.timing).toEqual([]);
        expect(comparison.pass).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });

  test('the warm-up (handshake, listings) keeps its recorded times however slow its cold start was', () => {
    const texts = [['ready'], ['one'], ['two']];
    const golden = sessionOf(
      [
        [239, 239.5, 240],
        [5, 10, 12],
        [5, 10, 12],
      ],
      texts,
    );
    const live = sessionOf(
      [
        [91, 91.5, 92],
        [5, 10, 12],
        [5, 10, 12],
      ],
      texts,
    );
    expect(changedLines(golden, keepRecordedTimes(golden, live))).toEqual([]);
  });
});
