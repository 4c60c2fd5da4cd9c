import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { firstSseBlock, SseParser, splitSse } from './sse.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Field-safe text: no line terminators (they would end the line). */
const lineText = fc.string({ unit: 'grapheme', maxLength: 20 }).map((s) => s.replace(/[\r\n]/g, ''));
const eol = fc.constantFrom('\n', '\r\n', '\r');

interface EventSpec {
  event?: string;
  id?: string;
  data: string[];
  comment?: string;
}

const eventSpec: fc.Arbitrary<EventSpec> = fc.record(
  {
    event: lineText,
    id: lineText.map((s) => s.replace(/\0/g, '')),
    data: fc.array(lineText, { minLength: 0, maxLength: 3 }),
    comment: lineText,
  },
  { requiredKeys: ['data'], noNullPrototype: true },
);

function render(spec: EventSpec, end: string): string {
  const lines: string[] = [];
  if (spec.comment !== undefined) lines.push(`:${spec.comment}`);
  if (spec.event !== undefined) lines.push(`event: ${spec.event}`);
  if (spec.id !== undefined) lines.push(`id: ${spec.id}`);
  for (const d of spec.data) lines.push(`data: ${d}`);
  if (lines.length === 0) lines.push(': empty');
  return lines.map((l) => l + end).join('') + end;
}

/** Cuts bytes at the given offsets (sorted, deduplicated), possibly inside UTF-8 characters. */
function cut(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let at = 0;
  for (const p of points) {
    chunks.push(bytes.slice(at, p));
    at = p;
  }
  chunks.push(bytes.slice(at));
  return chunks;
}

describe('SseParser', () => {
  test.prop([
    fc.array(fc.tuple(eventSpec, eol), { minLength: 1, maxLength: 6 }),
    fc.array(fc.nat(), { maxLength: 12 }),
  ])('gives the same blocks, byte for byte, however the stream is cut into reads', (events, offsets) => {
    const texts = events.map(([spec, end]) => render(spec, end));
    const bytes = encoder.encode(texts.join(''));
    const parser = new SseParser();
    const blocks = cut(bytes, offsets).flatMap((chunk) => parser.push(chunk));
    blocks.push(...parser.end());
    expect(blocks.map((b) => decoder.decode(b.bytes))).toEqual(texts);
    blocks.forEach((block, i) => {
      const [spec] = events[i] as [EventSpec, string];
      expect(block.incomplete).toBe(false);
      expect(block.data).toBe(spec.data.length > 0 ? spec.data.join('\n') : undefined);
      if (spec.id !== undefined) expect(block.id).toBe(spec.id);
      if (spec.event !== undefined) expect(block.event).toBe(spec.event);
    });
  });

  test('keeps a multi-byte character split across reads intact', () => {
    const bytes = encoder.encode('data: café résumé naïve\n\n');
    const split = bytes.indexOf(0xc3) + 1; // inside the two bytes of "é"
    const parser = new SseParser();
    const blocks = [...parser.push(bytes.slice(0, split)), ...parser.push(bytes.slice(split))];
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.data).toBe('café résumé naïve');
  });

  test('waits for the LF after a CR that ends a read', () => {
    const parser = new SseParser();
    expect(parser.push(encoder.encode('data: a\r\n\r'))).toEqual([]);
    const [block] = parser.push(encoder.encode('\n'));
    expect(decoder.decode(block?.bytes)).toBe('data: a\r\n\r\n');
  });

  test('parses priming events, retry, comments and the tail of a cut stream', () => {
    const blocks = splitSse(encoder.encode('id: 1-1\nretry: 200\ndata: \n\n: keepalive\n\nevent: message\ndata: {"a"'));
    expect(blocks[0]).toMatchObject({ id: '1-1', retry: 200, data: '', incomplete: false });
    expect(blocks[1]).toMatchObject({ comments: [' keepalive'], incomplete: false });
    expect(blocks[1]?.data).toBeUndefined();
    expect(blocks[2]).toMatchObject({ event: 'message', data: '{"a"', incomplete: true });
  });

  test('joins multi-line data with LF', () => {
    expect(splitSse(encoder.encode('data: one\ndata: two\n\n'))[0]?.data).toBe('one\ntwo');
  });
});

describe('firstSseBlock', () => {
  const body = fc
    .array(
      fc.oneof(
        fc.constantFrom('\n', '\r', '\r\n', '\uFEFF', 'data: ', 'data:{"a":1}', 'id: 7', 'event: message', ': hi'),
        fc.constantFrom('retry: 200', 'retry: x', 'é', '😀', '\uD800', 'x'),
      ),
      { maxLength: 16 },
    )
    .map((parts) => parts.join(''));

  test.prop([body])('reads the same first block from text as splitSse does from its bytes', (text) => {
    const fromBytes = splitSse(encoder.encode(text))[0];
    const fromText = firstSseBlock(text);
    expect(fromText && { ...fromText, bytes: [...fromText.bytes] }).toEqual(
      fromBytes && { ...fromBytes, bytes: [...fromBytes.bytes] },
    );
  });
});
