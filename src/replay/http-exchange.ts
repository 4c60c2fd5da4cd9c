import type { HttpRequest } from '../http/front-door.js';
import { concatBytes } from './live-event.js';

/** A request as the engine sees it: as it came through the front door. */
export type IncomingRequest = HttpRequest;

/** Where a response goes: a node:http response, an msw stream, a stdout. */
export interface ResponseSink {
  head(status: number, headers: Record<string, string>): void;
  write(bytes: Uint8Array | string): void;
  /** Writes the pieces of one event as one write, without joining them first, where the sink can. */
  writeAll?(pieces: readonly Uint8Array[]): void;
  /** Sends what was written so far now rather than at the end of this turn of the loop, where the sink batches. */
  flush?(): void;
  end(): void;
  /** Called once if the client goes away before `end()`. */
  onClose(listener: () => void): void;
}

/** An event as written: text, or the bytes of a stamped recorded event (shared slices and live values). */
export type Outgoing = string | readonly Uint8Array[];

/** Writes one event as one write, whatever the sink can take. */
export function writeOut(sink: ResponseSink, out: Outgoing): void {
  if (typeof out === 'string' || out.length === 1) sink.write(typeof out === 'string' ? out : (out[0] as Uint8Array));
  else if (sink.writeAll) sink.writeAll(out);
  else sink.write(concatBytes(out));
}
