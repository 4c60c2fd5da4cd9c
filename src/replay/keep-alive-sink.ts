import type { ResponseSink } from './http-exchange.js';

const decoder = new TextDecoder();
const EVENT_END = /(\r\n\r\n|\n\n|\r\r)$/;

/**
 * `sink` with a `: keepalive` comment written every `everyMs` while its SSE response is open, as
 * servers and proxies keep a quiet stream alive: only between events (never inside one cut into
 * pieces), and never once the response has ended or the client has gone.
 */
export function keepAliveSink(sink: ResponseSink, everyMs: number): ResponseSink {
  let timer: NodeJS.Timeout | undefined;
  let between = true;
  let gone = false;
  const stop = (): void => {
    clearInterval(timer);
    timer = undefined;
  };
  const note = (bytes: Uint8Array | string): void => {
    const text = typeof bytes === 'string' ? bytes : decoder.decode(bytes.subarray(Math.max(0, bytes.length - 4)));
    if (text.length > 0) between = EVENT_END.test(text);
  };
  sink.onClose(() => {
    gone = true;
    stop();
  });
  return {
    head(status, headers) {
      sink.head(status, headers);
      const type = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
      if (status === 200 && type.includes('text/event-stream') && timer === undefined && !gone) {
        timer = setInterval(() => {
          if (!between) return;
          sink.write(': keepalive\n\n');
          sink.flush?.();
        }, everyMs);
        // A replay that is closing waits on no comment.
        timer.unref();
      }
    },
    write(bytes) {
      note(bytes);
      sink.write(bytes);
    },
    writeAll(pieces) {
      for (const piece of pieces) note(piece);
      if (sink.writeAll) sink.writeAll(pieces);
      else for (const piece of pieces) sink.write(piece);
    },
    flush: () => sink.flush?.(),
    end() {
      stop();
      sink.end();
    },
    onClose: (listener) => sink.onClose(listener),
  };
}
