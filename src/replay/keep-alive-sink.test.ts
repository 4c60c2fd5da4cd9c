import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ResponseSink } from './http-exchange.js';
import { keepAliveSink } from './keep-alive-sink.js';

function recording(): { sink: ResponseSink; writes: string[]; close: () => void } {
  const writes: string[] = [];
  const listeners: (() => void)[] = [];
  const sink: ResponseSink = {
    head: () => undefined,
    write: (bytes) => void writes.push(typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8')),
    end: () => void writes.push('<end>'),
    onClose: (listener) => void listeners.push(listener),
  };
  const close = (): void => {
    for (const listener of listeners) listener();
  };
  return { sink, writes, close };
}

afterEach(() => vi.useRealTimers());

describe('keepAliveSink', () => {
  it('writes a comment every interval between events, never inside one, and stops at the end', () => {
    vi.useFakeTimers();
    const { sink, writes } = recording();
    const out = keepAliveSink(sink, 100);
    out.head(200, { 'content-type': 'text/event-stream' });
    vi.advanceTimersByTime(250);
    out.write('event: message\ndata: {"a"');
    vi.advanceTimersByTime(200);
    out.write(':1}\n\n');
    vi.advanceTimersByTime(100);
    out.end();
    vi.advanceTimersByTime(500);
    expect(writes).toEqual([
      ': keepalive\n\n',
      ': keepalive\n\n',
      'event: message\ndata: {"a"',
      ':1}\n\n',
      ': keepalive\n\n',
      '<end>',
    ]);
  });

  it('writes nothing on a JSON answer, and stops when the client goes', () => {
    vi.useFakeTimers();
    const json = recording();
    keepAliveSink(json.sink, 100).head(200, { 'content-type': 'application/json' });
    vi.advanceTimersByTime(500);
    expect(json.writes).toEqual([]);
    const gone = recording();
    keepAliveSink(gone.sink, 100).head(200, { 'content-type': 'text/event-stream' });
    vi.advanceTimersByTime(150);
    gone.close();
    vi.advanceTimersByTime(500);
    expect(gone.writes).toEqual([': keepalive\n\n']);
  });

  it('starts no timer when the client went before the head was written', () => {
    vi.useFakeTimers();
    const { sink, writes, close } = recording();
    const out = keepAliveSink(sink, 100);
    close();
    out.head(200, { 'content-type': 'text/event-stream' });
    vi.advanceTimersByTime(500);
    expect(writes).toEqual([]);
  });
});
