import type { JsonRpcMessage } from '../transcript/frame-content.js';
import type { ReplayEvent } from './replay-plan.js';
import type { LiveStamp } from './stamp.js';
import { fillTemplate, type StampTemplate, stampTemplate } from './stamp-template.js';

/** Events up to this size go out as one fresh buffer; larger ones as shared slices around the live values. */
const COPY_LIMIT = 16 * 1024;

/** A call's live values, as text and as the bytes written between recorded slices. */
export interface LiveFill {
  readonly stamp: LiveStamp;
  readonly id: Uint8Array | undefined;
  readonly token: Uint8Array | undefined;
}

/** The live values of one call, encoded once for all its events. */
export function liveFill(stamp: LiveStamp): LiveFill {
  return {
    stamp,
    id: stamp.idJson === undefined ? undefined : Buffer.from(stamp.idJson),
    token: stamp.tokenJson === undefined ? undefined : Buffer.from(stamp.tokenJson),
  };
}

const NO_FILL: LiveFill = { stamp: {}, id: undefined, token: undefined };

/** A template's recorded bytes, encoded once and shared by every session. */
interface SharedBytes {
  readonly texts: readonly Uint8Array[];
  readonly recorded: readonly Uint8Array[];
  /** The whole frame, for a template without holes: sent as it is by every session. */
  readonly whole: readonly Uint8Array[];
}

const templateBytes = new WeakMap<StampTemplate, SharedBytes>();

function bytesOf(template: StampTemplate): SharedBytes {
  let bytes = templateBytes.get(template);
  if (!bytes) {
    // Buffers, not TextEncoder's arrays: small ones come from Node's pool instead of an allocation
    // the garbage collector tracks one by one.
    const texts = template.texts.map((t) => Buffer.from(t));
    bytes = { texts, recorded: template.recorded.map((t) => Buffer.from(t)), whole: texts.slice(0, 1) };
    templateBytes.set(template, bytes);
  }
  return bytes;
}

/**
 * A recorded event as one call replays it: the live id and token in the holes its plan found.
 * Its text is made on first use and its bytes each time they are asked for (once, unless a client
 * resumes), so a session pays only for what it sends and keeps no bytes after, and a large event is
 * sent as slices shared with every other session rather than a copy of its own.
 */
export class LiveEvent implements ReplayEvent {
  readonly offsetUs: number;
  readonly kind: ReplayEvent['kind'];
  readonly eventId?: string;
  readonly message?: JsonRpcMessage;
  readonly read?: number;
  private readonly cut: StampTemplate;
  private text: string | undefined;

  constructor(
    recorded: ReplayEvent,
    private readonly fill: LiveFill = NO_FILL,
  ) {
    this.offsetUs = recorded.offsetUs;
    this.kind = recorded.kind;
    if (recorded.eventId !== undefined) this.eventId = recorded.eventId;
    if (recorded.message !== undefined) this.message = recorded.message;
    if (recorded.read !== undefined) this.read = recorded.read;
    // An event the engine made up (a `ping` answer) has no plan: it is found here, once.
    this.cut = recorded.template ?? stampTemplate(recorded.raw, recorded.kind, false);
  }

  /** The stamped text. */
  get raw(): string {
    this.text ??= fillTemplate(this.cut, this.fill.stamp);
    return this.text;
  }

  /** The stamped bytes, to be written as one write: recorded slices (shared) and the live values. */
  bytes(): readonly Uint8Array[] {
    const shared = bytesOf(this.cut);
    if (this.cut.holes.length === 0) return shared.whole;
    const pieces: Uint8Array[] = [shared.texts[0] as Uint8Array];
    let size = pieces[0]?.byteLength ?? 0;
    for (let i = 0; i < this.cut.holes.length; i++) {
      const live = this.cut.holes[i] === 'id' ? this.fill.id : this.fill.token;
      const value = live ?? (shared.recorded[i] as Uint8Array);
      const text = shared.texts[i + 1] as Uint8Array;
      pieces.push(value, text);
      size += value.byteLength + text.byteLength;
    }
    // An empty piece would read as the end of a chunked body to some writers: none is written.
    const nonEmpty = pieces.filter((p) => p.byteLength > 0);
    return nonEmpty.length > 1 && size <= COPY_LIMIT ? [concatBytes(nonEmpty, size)] : nonEmpty;
  }
}

/** One buffer holding `pieces` in order. */
export function concatBytes(pieces: readonly Uint8Array[], size?: number): Uint8Array {
  // Buffer.concat takes small buffers from Node's pool.
  return Buffer.concat(pieces, size);
}

/**
 * The delivery offset of each event: events the recording received in one read share the offset of
 * the first of them, so they are written together again (one read for the client), as recorded.
 */
export function readOffsets(events: readonly LiveEvent[], headUs: number): number[] {
  const offsets: number[] = [];
  for (const [i, event] of events.entries()) {
    const previous = events[i - 1];
    const sameRead = previous !== undefined && event.read !== undefined && previous.read === event.read;
    offsets.push(sameRead ? (offsets[i - 1] as number) : Math.max(headUs, event.offsetUs));
  }
  return offsets;
}
