import type { Frame } from './frame.js';
import { frameMessage } from './frame-content.js';

/**
 * The exchange of the first `tools/call` request the client sent, or `undefined` when it sent none.
 * The exchanges before it are the session's warm-up: the handshake (`initialize` or
 * `server/discover`) and the listings a session opens with. Their timing is a server's cold start
 * (loading, compiling schemas on the first `tools/list`: 239 ms on a first run, 91 ms on the next),
 * not how it streams, so the timing compare does not judge them and an update keeps their recorded
 * times.
 */
export function firstCallExchange(frames: Iterable<Frame>): number | undefined {
  for (const frame of frames) {
    if (frame.dir !== 'client->server' || frame.channel === 'read' || frame.channel === 'http') continue;
    const message = frameMessage(frame);
    if (message?.method === 'tools/call' && 'id' in message) return frame.exchange;
  }
  return undefined;
}

/** Whether `exchange` comes before the first call ({@link firstCallExchange}): its timing is not judged. */
export function isWarmUp(exchange: number, firstCall: number | undefined): boolean {
  return firstCall !== undefined && exchange < firstCall;
}
