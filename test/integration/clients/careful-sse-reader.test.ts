import { describe, expect, test } from 'vitest';
import { readSse, type SseState } from '../../support/careful-client/sse-reader.mjs';

// The careful client's SSE reader against the WHATWG rules, and each framing fault against the rule it
// breaks: every fault test is the mutation that the careful test beside it must catch.

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A body written as these reads, in order. */
function body(reads: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const read of reads) controller.enqueue(read);
      controller.close();
    },
  });
}

/** Every cut of `text` into reads of `size` bytes (cutting inside multi-byte characters). */
function cut(text: string, size: number): Uint8Array[] {
  const all = bytes(text);
  const reads: Uint8Array[] = [];
  for (let at = 0; at < all.length; at += size) reads.push(all.subarray(at, at + size));
  return reads;
}

async function read(
  reads: readonly Uint8Array[],
  ...faults: string[]
): Promise<{ messages: string[]; state: SseState }> {
  const messages: string[] = [];
  const state: SseState = {};
  const outcome = readSse(body(reads), state, (data) => messages.push(data), new Set(faults));
  // A fault that hangs (max-event-1mib) never resolves: judge what arrived by then.
  await Promise.race([outcome, new Promise((resolve) => setTimeout(resolve, 200))]);
  return { messages, state };
}

const EVENTS = 'event: message\nid: 7\nretry: 250\ndata: {"a":"café 🚀"}\n\ndata: {"b":\ndata: 2}\n\n';

describe('the WHATWG rules', () => {
  test.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('%s line ends, cut into reads of every size from 1 to 9 bytes', async (_, end) => {
    const text = EVENTS.replaceAll('\n', end);
    for (let size = 1; size <= 9; size++) {
      const { messages, state } = await read(cut(text, size));
      expect({ size, messages }).toEqual({ size, messages: ['{"a":"café 🚀"}', '{"b":\n2}'] });
      expect(state).toEqual({ lastEventId: '7', retry: 250 });
    }
  });

  test('comments, priming with empty data, other event types and an unterminated last event are not messages', async () => {
    const text = ': keepalive\n\nid: p-1\ndata: \n\nevent: ping\ndata: {}\n\ndata:{"x":1}\n\n:\ndata: {"half":true}';
    const { messages, state } = await read([bytes(text)]);
    expect(messages).toEqual(['{"x":1}']);
    expect(state.lastEventId).toBe('p-1');
  });

  test('an empty id: resets the cursor; an event over 1 MiB is read whole', async () => {
    const big = 'x'.repeat(3 * 1024 * 1024);
    const { messages, state } = await read(cut(`id: 4\ndata: "${big}"\n\nid:\ndata: 1\n\n`, 1024));
    expect(messages.map((m) => m.length)).toEqual([big.length + 2, 1]);
    expect(state.lastEventId).toBe('');
  });
});

describe('each framing fault breaks its rule', () => {
  test('crlf-blind and cr-blind', async () => {
    expect((await read([bytes(EVENTS.replaceAll('\n', '\r\n'))], 'crlf-blind')).messages).toEqual([]);
    expect((await read([bytes(EVENTS.replaceAll('\n', '\r'))], 'cr-blind')).messages).toEqual([]);
    expect((await read([bytes(EVENTS.replaceAll('\n', '\r\n'))], 'cr-blind')).messages).toHaveLength(2);
  });

  test('utf8-per-chunk turns a character cut across reads into U+FFFD', async () => {
    const { messages } = await read(cut(EVENTS, 3), 'utf8-per-chunk');
    expect(messages[0]).toContain('\uFFFD');
  });

  test('event-required, first-data-line-only, comments-as-data, max-event-1mib', async () => {
    expect((await read([bytes('data: {"x":1}\n\n')], 'event-required')).messages).toEqual([]);
    expect((await read([bytes(EVENTS)], 'first-data-line-only')).messages[1]).toBe('{"b":');
    expect((await read([bytes(': keepalive\ndata: {}\n\n')], 'comments-as-data')).messages).toEqual(['keepalive\n{}']);
    const big = `data: "${'x'.repeat(1024 * 1024 + 1)}"\n\n`;
    expect((await read(cut(big, 4096), 'max-event-1mib')).messages).toEqual([]);
  });
});
