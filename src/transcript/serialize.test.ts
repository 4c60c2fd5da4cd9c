import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { type Frame, GOLDEN_FORMAT, type Transcript } from './frame.js';
import { frameBytes } from './frame-content.js';
import { parseTranscript } from './parse.js';
import { encodeRaw, serializeTranscript } from './serialize.js';

/** Bodies that stress the format: CRLF, multi-line data, unicode, split UTF-8 and invalid bytes. */
const body: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.string({ unit: 'grapheme' }).map((s) => new TextEncoder().encode(s)),
  fc
    .array(fc.constantFrom('event: message', 'data: {"a":1}', 'data: ', ': keepalive', 'id: 2-4', 'café', '🚀'), {
      maxLength: 6,
    })
    .chain((lines) =>
      fc.constantFrom('\n', '\r\n', '\r').map((end) => new TextEncoder().encode(lines.join(end) + end + end)),
    ),
  fc.uint8Array({ maxLength: 40 }),
  // Half of a multi-byte character: not valid UTF-8 on its own.
  fc.constant(new TextEncoder().encode('naïve').slice(0, 3)),
);

const frame: fc.Arbitrary<Frame> = fc.oneof(
  fc
    .record({
      t: fc.nat(),
      dir: fc.constantFrom('client->server' as const, 'server->client' as const),
      channel: fc.constantFrom('sse' as const, 'json' as const, 'stdio' as const, 'text' as const),
      exchange: fc.nat({ max: 50 }),
      bytes: body,
    })
    .map(({ bytes, ...rest }) => ({ ...rest, ...encodeRaw(bytes) })),
  fc.record({
    t: fc.nat(),
    dir: fc.constant('client->server' as const),
    channel: fc.constant('http' as const),
    exchange: fc.nat({ max: 50 }),
    method: fc.constantFrom('GET', 'POST', 'DELETE'),
    url: fc.constant('/mcp'),
    headers: fc.dictionary(fc.stringMatching(/^[a-z-]{1,12}$/), fc.string(), { noNullPrototype: true }),
  }),
  fc.record({
    t: fc.nat(),
    dir: fc.constant('server->client' as const),
    channel: fc.constant('read' as const),
    exchange: fc.nat({ max: 50 }),
    size: fc.nat(),
  }),
  fc.record({
    t: fc.nat(),
    dir: fc.constantFrom('client->server' as const, 'server->client' as const),
    channel: fc.constant('end' as const),
    exchange: fc.nat({ max: 50 }),
    reason: fc.constantFrom('complete' as const, 'cancelled' as const, 'open' as const),
  }),
);

const transcript: fc.Arbitrary<Transcript> = fc.record({
  header: fc.record({
    format: fc.constant(GOLDEN_FORMAT),
    protocolVersion: fc.constantFrom('2025-06-18', '2025-11-25'),
    transport: fc.constantFrom('http' as const, 'stdio' as const),
    target: fc.string(),
    recorder: fc.constant('mcp-golden test'),
    scenario: fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
    arguments: fc.dictionary(fc.string(), fc.integer(), { noNullPrototype: true }),
  }),
  frames: fc.array(frame, { maxLength: 20 }),
});

describe('serializeTranscript / parseTranscript', () => {
  test.prop([transcript])('round-trips: parse(serialize(x)) equals x', (x) => {
    const text = serializeTranscript(x);
    expect(parseTranscript(text)).toEqual(x);
    expect(serializeTranscript(parseTranscript(text))).toBe(text);
  });

  test.prop([fc.array(body, { minLength: 1, maxLength: 5 })])('keeps every byte, valid UTF-8 or not', (bodies) => {
    const frames = bodies.map((b, i) => ({
      t: i,
      dir: 'server->client' as const,
      channel: 'text' as const,
      exchange: 1,
      ...encodeRaw(b),
    }));
    const parsed = parseTranscript(
      serializeTranscript({
        header: { format: GOLDEN_FORMAT, protocolVersion: 'x', transport: 'http', target: 't', recorder: 'r' },
        frames,
      }),
    );
    expect(parsed.frames.map(frameBytes)).toEqual(bodies.map((b) => new Uint8Array(b)));
  });

  test('writes JSON Lines with sorted keys, LF and a frame count in the header', () => {
    const text = serializeTranscript({
      header: { format: GOLDEN_FORMAT, protocolVersion: '2025-11-25', transport: 'http', target: 'x', recorder: 'r' },
      frames: [{ t: 5, dir: 'server->client', channel: 'sse', exchange: 1, raw: 'data: é\r\n\r\n' }],
    });
    expect(text).toBe(
      '{"format":"mcp-golden/1","frames":1,"protocolVersion":"2025-11-25","recorder":"r","target":"x","transport":"http"}\n' +
        '{"channel":"sse","dir":"server->client","exchange":1,"raw":"data: é\\r\\n\\r\\n","t":5}\n',
    );
  });

  test('uses rawBase64 only for bytes that are not valid UTF-8', () => {
    expect(encodeRaw(new TextEncoder().encode('café'))).toEqual({ raw: 'café' });
    expect(encodeRaw(new Uint8Array([0x63, 0xc3]))).toEqual({ rawBase64: 'Y8M=' });
  });

  test('keeps a leading UTF-8 byte order mark', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0xc3, 0xa9]);
    const { raw } = encodeRaw(bytes) as { raw: string };
    expect(raw).toBe('\uFEFFaé');
    expect(new TextEncoder().encode(raw)).toEqual(bytes);
  });

  test('reads an ASCII slice of a larger buffer byte for character, control bytes included', () => {
    const all = new Uint8Array([0xc3, ...Array.from({ length: 128 }, (_, i) => i), 0xa9]);
    const ascii = all.subarray(1, 129);
    const { raw } = encodeRaw(ascii) as { raw: string };
    expect(raw).toBe(String.fromCharCode(...ascii));
    expect(new TextEncoder().encode(raw)).toEqual(ascii);
  });
});

describe('corrupt goldens, read by the pure reader', () => {
  const good = serializeTranscript({
    header: { format: GOLDEN_FORMAT, protocolVersion: '2025-11-25', transport: 'http', target: 't', recorder: 'r' },
    frames: [{ t: 1, dir: 'server->client', channel: 'end', exchange: 1, reason: 'complete' }],
  });
  const errorOf = (text: string, options = {}): Error => {
    try {
      parseTranscript(text, options);
    } catch (error) {
      if (error instanceof Error) return error;
    }
    throw new Error('expected parseTranscript to throw');
  };

  test('without a command from the caller, the fix is to record the golden again', () => {
    expect(errorOf(`${good.split('\n')[0]}\n{oops}\n`).message).toMatch(/Fix line 2 or record it again\.$/);
    expect(errorOf(good.slice(0, -5)).message).toMatch(/\. Record it again\.$/);
  });

  test("the caller's command is named: as given, or read from the header", () => {
    const cut = good.slice(0, -5);
    expect(errorOf(cut, { regenerate: 'make goldens' }).message).toMatch(/Regenerate it with `make goldens`\.$/);
    const regenerateFor = (header: Readonly<Record<string, unknown>>, folder: string | undefined) =>
      `record ${String(header.target)} into ${folder}`;
    expect(errorOf(cut, { source: 'a/b.jsonl', regenerate: 'x', regenerateFor }).message).toMatch(
      /Regenerate it with `record t into a`\.$/,
    );
  });
});
