import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { isGoldenError } from '../errors.js';
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

describe('corrupt goldens', () => {
  const good = serializeTranscript({
    header: {
      format: GOLDEN_FORMAT,
      protocolVersion: '2025-11-25',
      transport: 'http',
      target: 'mcp-golden serve',
      recorder: 'r',
      scenario: 'progress-10x100',
    },
    frames: [
      { t: 1, dir: 'client->server', channel: 'http', exchange: 1, method: 'POST', url: '/mcp', headers: {} },
      { t: 2, dir: 'server->client', channel: 'sse', exchange: 1, raw: 'data: {}\n\n' },
      { t: 3, dir: 'server->client', channel: 'end', exchange: 1, reason: 'complete' },
    ],
  });
  const lines = good.split('\n');

  function errorOf(text: string): Error {
    try {
      parseTranscript(text, { source: 'goldens/progress-10x100.jsonl' });
    } catch (error) {
      if (error instanceof Error) return error;
    }
    throw new Error('expected parseTranscript to throw');
  }

  test('a bad JSON line names the file, the line and the fix', () => {
    const text = [lines[0], lines[1], '{"t": 2, oops}', lines[3], ''].join('\n');
    const error = errorOf(text);
    expect(isGoldenError(error, 'E_GOLDEN_PARSE')).toBe(true);
    expect(error.message).toMatch(
      /^Failed to read golden "goldens\/progress-10x100\.jsonl": line 3 is not valid JSON \(.+\)\. Each line must be one frame\. Fix line 3 or regenerate it with `npx mcp-golden record progress-10x100`\.$/,
    );
  });

  test("a golden of the user's own server names the record command for that server and folder", () => {
    const stdio = good.replace('"target":"mcp-golden serve"', '"target":"node dist/server.js --port 0"');
    expect(stdio).not.toBe(good);
    const cut = stdio.slice(0, stdio.length - 20);
    expect(errorOf(cut).message).toContain(
      "`npx mcp-golden record progress-10x100 --target 'node dist/server.js --port 0' --scenarios <scenarios.json> --out goldens`",
    );
    const overStdio = stdio.replace('"transport":"http"', '"transport":"stdio"');
    expect(errorOf(overStdio.slice(0, overStdio.length - 20)).message).toContain(
      "`npx mcp-golden record progress-10x100 --stdio 'node dist/server.js --port 0' --scenarios <scenarios.json> --out goldens`",
    );
  });

  test('a newer format is refused with an upgrade hint', () => {
    const error = errorOf(good.replace('"format":"mcp-golden/1"', '"format":"mcp-golden/2"'));
    expect(isGoldenError(error, 'E_GOLDEN_VERSION')).toBe(true);
    expect(error.message).toContain('is in format mcp-golden/2, newer than this mcp-golden reads (mcp-golden/1)');
    expect(error.message).toContain('Upgrade mcp-golden');
  });

  test('a file cut inside a line is reported as truncated', () => {
    const error = errorOf(good.slice(0, good.length - 20));
    expect(error.message).toContain('the file is truncated (line 4 does not end with a newline)');
    expect(error.message).toContain('`npx mcp-golden record progress-10x100`');
  });

  test('a file cut at a line boundary is caught by the frame count', () => {
    const error = errorOf(`${lines.slice(0, 3).join('\n')}\n`);
    expect(error.message).toContain('the header announces 3 frames, the file has 2');
  });

  test.each([
    ['an empty file', '', 'line 1 is missing: the file is empty'],
    ['no header', `${lines[1]}\n`, 'line 1 is not a transcript header'],
    ['a bad direction', good.replace('"dir":"server->client"', '"dir":"sideways"'), 'line 3 has "dir" "sideways"'],
    ['a fractional time', good.replace('"t":2', '"t":2.5'), 'line 3 has "t" 2.5; expected whole microseconds'],
    ['an unknown channel', good.replace('"channel":"end"', '"channel":"bogus"'), 'line 4 has "channel" "bogus"'],
  ])('%s is reported with its line', (_, text, message) => {
    expect(errorOf(text).message).toContain(message);
  });
});
