import { describe, expect, test } from 'vitest';
import { encodeRaw } from '../transcript/serialize.js';
import { splitSse } from '../transcript/sse.js';
import { FrameSink, sseBlocksOfRead } from './frame-sink.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('FrameSink hands the SSE blocks it cut to the reader of the same chunk', () => {
  test('each read maps to the blocks it completed, so the wire session parses the body once', () => {
    const body = 'event: message\nid: 7\ndata: {"a":1}\n\ndata: {"b":"é"}\r\n\r\n: keep\n\n';
    const bytes = encode(body);
    // Cut inside the é and inside the CRLF pair: blocks complete only on a later read.
    const reads = [bytes.subarray(0, 40), bytes.subarray(40, 53), bytes.subarray(53)];
    const sink = new FrameSink();
    const tap = sink.body(1, 'server->client', 'sse');
    const seen = reads.map((read) => {
      tap.read(read);
      return sseBlocksOfRead(read);
    });
    expect(seen.map((blocks) => blocks?.length)).toEqual([1, 0, 2]);
    const whole = splitSse(bytes);
    expect(seen.flatMap((blocks) => blocks ?? [])).toEqual(whole);
    expect(seen[0]?.[0]).toMatchObject({ id: '7', data: '{"a":1}' });
  });

  test('a chunk no SSE tap read has no blocks: the reader parses it itself', () => {
    const sink = new FrameSink();
    const json = encode('{"jsonrpc":"2.0","id":1,"result":{}}');
    sink.body(1, 'server->client', 'json').read(json);
    expect(sseBlocksOfRead(json)).toBeUndefined();
    expect(sseBlocksOfRead(encode('data: x\n\n'))).toBeUndefined();
  });
});

test("an SSE frame keeps every byte: its raw is what encoding the block's bytes gives, whatever they hold", () => {
  const bom = Uint8Array.of(0xef, 0xbb, 0xbf);
  const bodies = [
    encode('data: {"a":1}\n\n'),
    encode('data: café résumé naïve 🚀\n\n'),
    encode('data: a real \uFFFD replacement character\n\n'),
    Buffer.concat([bom, encode('data: after a byte order mark\n\n')]),
    Buffer.concat([encode('data: bad '), Uint8Array.of(0xff, 0xc3), encode(' bytes\n\n')]),
    encode('data: cut short, no blank line'),
  ];
  for (const body of bodies) {
    const sink = new FrameSink();
    const tap = sink.body(1, 'server->client', 'sse');
    tap.read(body);
    tap.end('complete');
    const frame = sink.snapshot().find((f) => f.channel === 'sse');
    const { raw, rawBase64 } = { raw: undefined, rawBase64: undefined, ...frame };
    expect({ raw, rawBase64 }).toEqual({ raw: undefined, rawBase64: undefined, ...encodeRaw(body) });
  }
});

test('stdio reads become one frame per line, however the reads cut the lines', () => {
  const text = '{"a":1}\n{"b":"é"}\n\n{"c":3}\nno newline at the end';
  const bytes = encode(text);
  for (const cuts of [[], [3], [8, 9], [1, 2, 3, 12, 13, 20], [bytes.length - 1]]) {
    const sink = new FrameSink();
    const tap = sink.body(1, 'server->client', 'stdio');
    let from = 0;
    for (const cut of [...cuts, bytes.length]) {
      tap.read(bytes.subarray(from, cut));
      from = cut;
    }
    tap.end('complete');
    const lines = sink.snapshot().filter((f) => f.channel === 'stdio');
    expect(lines.map((f) => f.raw)).toEqual(['{"a":1}\n', '{"b":"é"}\n', '\n', '{"c":3}\n', 'no newline at the end']);
  }
});
