import type { Writable } from 'node:stream';

/**
 * Corks `stream` until the current turn of the event loop ends: what is written in the meantime
 * (a final notification and the result, sent in microtasks one after the other) leaves in one
 * write. `end()` uncorks too; an ended or destroyed stream is left alone.
 */
export function holdForTurn(stream: Writable): void {
  if (stream.writableEnded || stream.destroyed) return;
  stream.cork();
  setImmediate(() => {
    if (!stream.writableEnded && !stream.destroyed && stream.writableCorked > 0) stream.uncork();
  });
}
