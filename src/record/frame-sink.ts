import type { BodyKind } from '../transcript/body-kind.js';
import type { Channel, Direction, EndReason, Frame, Transcript, TranscriptHeader } from '../transcript/frame.js';
import { encodeDecodedRaw, encodeRaw } from '../transcript/serialize.js';
import { type SseBlock, SseParser } from '../transcript/sse.js';

/** A monotonic clock in whole microseconds since some origin. */
export type Clock = () => number;

/** A clock reading `performance.now()` in whole microseconds since the clock was made. */
export function monotonicClock(): Clock {
  const origin = performance.now();
  return () => Math.round((performance.now() - origin) * 1000);
}

/** Receives the bytes of one body, read by read. */
export interface BodyTap {
  /** One read of bytes. */
  read(bytes: Uint8Array): void;
  /** The body ended; `open` when recording stopped first. Later calls are ignored. */
  end(reason: EndReason, error?: string): void;
}

const LF = 0x0a;

/** The SSE blocks each read completed, keyed by the read's bytes; an entry lives as long as its chunk. */
const blocksByRead = new WeakMap<Uint8Array, readonly SseBlock[]>();

/**
 * The SSE blocks that `bytes`, one read given to an SSE body tap, completed: a reader of the same
 * chunk (the wire session reading a tapped response) takes them instead of parsing the body again.
 * `undefined` when no SSE tap read this chunk.
 */
export function sseBlocksOfRead(bytes: Uint8Array): readonly SseBlock[] | undefined {
  return blocksByRead.get(bytes);
}

/**
 * Collects frames from the taps (fetch wrapper, recording proxy, stdio tee), time-stamping every
 * read on one monotonic clock, and cuts bodies into frames (SSE blocks, JSON bodies, stdio lines)
 * without changing a byte.
 */
export class FrameSink {
  private readonly frames: Frame[] = [];
  private readonly open = new Set<BodyTap>();
  private exchanges = 0;

  /** Wall-clock time (ms since the epoch, sub-millisecond) of the clock's origin: aligns transcripts with other processes' logs. */
  readonly originEpochMs: number;

  constructor(readonly clock: Clock = monotonicClock()) {
    this.originEpochMs = performance.timeOrigin + performance.now() - clock() / 1000;
  }

  /** Starts a new exchange and returns its 1-based number. */
  nextExchange(): number {
    this.exchanges += 1;
    return this.exchanges;
  }

  /** Appends a frame stamped now. */
  push(frame: Omit<Frame, 't'>): void {
    this.frames.push({ t: this.clock(), ...frame });
  }

  /** Records an HTTP request head. */
  request(exchange: number, method: string, url: string, headers: Record<string, string>): void {
    this.push({ dir: 'client->server', channel: 'http', exchange, method, url, headers });
  }

  /** Records an HTTP response head. */
  response(exchange: number, status: number, headers: Record<string, string>): void {
    this.push({ dir: 'server->client', channel: 'http', exchange, status, headers });
  }

  /** Records a body given whole (the SDK passes POST bodies as one string): one read, one frame. */
  wholeBody(exchange: number, dir: Direction, kind: BodyKind, bytes: Uint8Array): void {
    const tap = this.body(exchange, dir, kind);
    tap.read(bytes);
    tap.end('complete');
  }

  /** Opens a body; every read gets a `read` frame and completes zero or more content frames. */
  body(exchange: number, dir: Direction, kind: BodyKind): BodyTap {
    const sink = this;
    const emit = (channel: Channel, bytes: Uint8Array): void => {
      if (bytes.length > 0) sink.push({ dir, channel, exchange, ...encodeRaw(bytes) });
    };
    // A block's text was decoded to parse it: the frame keeps that text rather than a second copy.
    const emitBlock = (block: SseBlock): void => {
      if (block.bytes.length > 0)
        sink.push({ dir, channel: 'sse', exchange, ...encodeDecodedRaw(block.bytes, block.text) });
    };
    const parser = kind === 'sse' ? new SseParser() : undefined;
    let pending: Uint8Array[] = [];
    let ended = false;
    const flushLines = (bytes: Uint8Array): void => {
      // The native byte search finds each LF: a megabyte line is not a loop over every byte.
      const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      let start = 0;
      for (let lf = view.indexOf(LF); lf >= 0; lf = view.indexOf(LF, start)) {
        pending.push(bytes.subarray(start, lf + 1));
        emit('stdio', Buffer.concat(pending));
        pending = [];
        start = lf + 1;
      }
      if (start < bytes.length) pending.push(bytes.slice(start));
    };
    const tap: BodyTap = {
      read(bytes) {
        if (ended) return;
        sink.push({ dir, channel: 'read', exchange, size: bytes.length });
        if (parser) {
          const blocks = parser.push(bytes);
          blocksByRead.set(bytes, blocks);
          for (const block of blocks) emitBlock(block);
        } else if (kind === 'stdio') flushLines(bytes);
        else pending.push(bytes.slice());
      },
      end(reason, error) {
        if (ended) return;
        ended = true;
        sink.open.delete(tap);
        if (parser) for (const block of parser.end()) emitBlock(block);
        else if (pending.length > 0)
          emit(kind === 'json' ? 'json' : kind === 'stdio' ? 'stdio' : 'text', Buffer.concat(pending));
        pending = [];
        sink.push({ dir, channel: 'end', exchange, reason, ...(error !== undefined && { error }) });
      },
    };
    this.open.add(tap);
    return tap;
  }

  /** A point to {@link rewind} to: the frames and exchanges recorded so far. */
  mark(): { readonly frames: number; readonly exchanges: number } {
    return { frames: this.frames.length, exchanges: this.exchanges };
  }

  /**
   * Forgets everything recorded after `mark` (an era probe that was answered "not here"), so the
   * transcript holds the session that followed as if it had started there. Bodies of the forgotten
   * exchanges must have ended.
   */
  rewind(mark: { readonly frames: number; readonly exchanges: number }): void {
    this.frames.length = mark.frames;
    this.exchanges = mark.exchanges;
  }

  /** Frames so far; bodies still open are not yet flushed. */
  snapshot(): readonly Frame[] {
    return this.frames;
  }

  /** Ends every open body with reason `open` and returns the transcript. */
  finish(header: TranscriptHeader): Transcript {
    for (const tap of [...this.open]) tap.end('open');
    return { header, frames: [...this.frames] };
  }
}
