import { fc, test as property } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import { compareTranscripts } from './compare.js';
import { GOLDEN_FORMAT, type Transcript } from './frame.js';
import { normalizedRawPieces, normalizeTranscript, normalizeTranscriptLazily } from './normalize.js';
import { prepareTranscript } from './prepared-transcript.js';

/** A call answered by one SSE event carrying `text` (large enough to be kept as a rope when long). */
function answered(text: string, id: number | string = 7, eventId = '1-2'): Transcript {
  const result = { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } };
  return {
    header: { format: GOLDEN_FORMAT, protocolVersion: '2025-11-25', transport: 'http', target: 'x', recorder: 'r' },
    frames: [
      {
        t: 0,
        dir: 'client->server',
        channel: 'json',
        exchange: 1,
        raw: `{"jsonrpc":"2.0","id":${JSON.stringify(id)}}`,
      },
      {
        t: 5,
        dir: 'server->client',
        channel: 'sse',
        exchange: 1,
        raw: `id: ${eventId}\ndata: ${JSON.stringify(result)}\n\n`,
      },
    ],
  };
}

const large = 'abcdefghij'.repeat(20_000);

describe('prepared transcripts', () => {
  test('normalising lazily gives the same frames as normalising, large texts kept as their pieces', () => {
    const transcript = answered(large, 'req-9');
    const lazy = normalizeTranscriptLazily(transcript);
    expect(lazy).toEqual(normalizeTranscript(transcript));
    const [, lazyEvent] = lazy.frames;
    const [, flatEvent] = normalizeTranscript(transcript).frames;
    if (!lazyEvent || !flatEvent) throw new Error('the transcript has two frames');
    expect(normalizedRawPieces(lazyEvent)?.join('')).toBe(lazyEvent.raw);
    expect(normalizedRawPieces(flatEvent)).toBeUndefined();
  });

  test('a large frame that differs in one character deep inside fails, wherever the ids differ', () => {
    const changed = `${large.slice(0, 150_000)}X${large.slice(150_001)}`;
    const result = compareTranscripts(answered(changed, 3, '9-9'), answered(large, 7, '1-2'));
    expect(result.pass).toBe(false);
    expect(result.headline).toContain('block 0 differs at character 150000');
    expect(compareTranscripts(answered(large, 3, '9-9'), answered(large, 7, '1-2')).pass).toBe(true);
  });

  property.prop(
    [
      fc.nat({ max: 200_000 }),
      fc.constantFrom('Y', 'ab'),
      fc.constantFrom(1, 123_456, 'a', 'req-123456'),
      fc.boolean(),
    ],
    { numRuns: 30 },
  )('a large frame passes exactly when its text is the same, however its pieces fall', (at, insert, id, changed) => {
    const other = changed ? `${large.slice(0, at)}${insert}${large.slice(at + insert.length)}` : large;
    // Ids of one JSON type normalise alike, whatever their length: the pieces fall at different offsets.
    const result = compareTranscripts(
      answered(other, id, `${id}-e`),
      answered(large, typeof id === 'number' ? 7 : 'z', '1-2'),
    );
    expect(result.pass).toBe(other === large);
  });

  test('a large frame one character longer or shorter fails', () => {
    expect(compareTranscripts(answered(`${large}a`), answered(large)).pass).toBe(false);
    expect(compareTranscripts(answered(large.slice(1)), answered(large)).pass).toBe(false);
  });

  test('streams come in exchange order, the client side first, reads left out', () => {
    const transcript = answered('x');
    const prepared = prepareTranscript({
      ...transcript,
      frames: [
        { t: 9, dir: 'server->client', channel: 'read', exchange: 2, size: 3 },
        { t: 8, dir: 'server->client', channel: 'end', exchange: 2, reason: 'complete' },
        ...transcript.frames,
      ],
    });
    expect(prepared.streams.map((s) => s.stream)).toEqual(['1:client->server', '1:server->client', '2:server->client']);
    expect([...prepared.starts]).toEqual([[1, 0]]);
  });
});
