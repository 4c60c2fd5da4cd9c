import type { JsonRpcMessage } from '../transcript/frame-content.js';
import type { ReplayEvent, ReplayExchange } from './replay-plan.js';
import { fillTemplate, type LiveStamp, liveToken, type StampTemplate } from './stamp-template.js';

/** Events up to this size go out as one fresh buffer; larger ones as shared slices around the live values. */
const COPY_LIMIT = 16 * 1024;

/**
 * A call's live values, as text and as the bytes written between recorded slices: encoded once
 * for all its events, when an event first needs them (a call whose events were stamped already
 * with the same values, by another session, never does: see {@link stampedBytes}).
 */
export class LiveFill {
  private idBytes: Uint8Array | undefined | null = null;
  private tokenBytes: Uint8Array | undefined | null = null;

  constructor(readonly stamp: LiveStamp) {}

  get id(): Uint8Array | undefined {
    if (this.idBytes === null)
      this.idBytes = this.stamp.idJson === undefined ? undefined : Buffer.from(this.stamp.idJson);
    return this.idBytes;
  }

  get token(): Uint8Array | undefined {
    if (this.tokenBytes === null) {
      this.tokenBytes = this.stamp.tokenJson === undefined ? undefined : Buffer.from(this.stamp.tokenJson);
    }
    return this.tokenBytes;
  }
}

/** The live values of one call. */
export function liveFill(stamp: LiveStamp): LiveFill {
  return new LiveFill(stamp);
}

const NO_FILL: LiveFill = new LiveFill({});

/** A template's recorded bytes, encoded once and shared by every session. */
interface SharedBytes {
  readonly texts: readonly Uint8Array[];
  readonly recorded: readonly Uint8Array[];
  /** The whole frame, for a template without holes: sent as it is by every session. */
  readonly whole: readonly Uint8Array[];
  /** The live values last stamped into this template (see {@link stampedBytes}), and the bytes they made. */
  last: { readonly stamp: LiveStamp; readonly out: readonly Uint8Array[] } | undefined;
}

const templateBytes = new WeakMap<StampTemplate, SharedBytes>();

function bytesOf(template: StampTemplate): SharedBytes {
  let bytes = templateBytes.get(template);
  if (!bytes) {
    // Buffers, not TextEncoder's arrays: small ones come from Node's pool instead of an allocation
    // the garbage collector tracks one by one.
    const texts = template.texts.map((t) => Buffer.from(t));
    bytes = {
      texts,
      recorded: template.recorded.map((t) => Buffer.from(t)),
      whole: texts.slice(0, 1),
      last: undefined,
    };
    templateBytes.set(template, bytes);
  }
  return bytes;
}

/**
 * A recorded event as one call replays it: the live id and token in the holes its plan found.
 * Its text is made on first use and its bytes ({@link stampedBytes}) each time they are asked for.
 * A call makes these only when an adapter reads its events (re-framing, stdio, JSON bodies); the
 * HTTP stream of a recorded framing stamps bytes straight from the recorded events.
 */
export class LiveEvent {
  private text: string | undefined;

  // The recorded event is kept as it is and read through: each is three fields, not a copy of the recorded one's.
  constructor(
    private readonly recorded: ReplayEvent,
    private readonly fill: LiveFill = NO_FILL,
  ) {}

  get offsetUs(): number {
    return this.recorded.offsetUs;
  }

  get kind(): ReplayEvent['kind'] {
    return this.recorded.kind;
  }

  get eventId(): string | undefined {
    return this.recorded.eventId;
  }

  get message(): JsonRpcMessage | undefined {
    return this.recorded.message;
  }

  get read(): number | undefined {
    return this.recorded.read;
  }

  /** The stamped text. */
  get raw(): string {
    this.text ??= fillTemplate(this.recorded.template, this.fill.stamp);
    return this.text;
  }

  /** The stamped bytes, to be written as one write: recorded slices (shared) and the live values. */
  bytes(): readonly Uint8Array[] {
    return stampedBytes(this.recorded, this.fill);
  }
}

/** Whether two calls put the same text in a template's holes (the values a hole's bytes are made of). */
const sameStamp = (a: LiveStamp, b: LiveStamp): boolean =>
  a.idJson === b.idJson && a.tokenJson === b.tokenJson && a.recordedTokenJson === b.recordedTokenJson;

/**
 * The bytes of a recorded event with a call's live values in its holes, to be written as one
 * write: recorded slices (shared) and the live values. A session keeps no bytes after sending
 * them, and a large event is sent as slices shared with every other session rather than a copy of
 * its own. Sessions of one client send the same id and token (each numbers its requests from the
 * same start, and the SDK's token is the request's id): the bytes the last call's values made for
 * a template are kept with it and handed to the next call with the same values, so a thousand
 * such sessions stamp each event once, not once each. The bytes handed out are never changed.
 */
export function stampedBytes(recorded: ReplayEvent, fill: LiveFill): readonly Uint8Array[] {
  const template = recorded.template;
  const shared = bytesOf(template);
  if (template.holes.length === 0) return shared.whole;
  const last = shared.last;
  if (last !== undefined && sameStamp(last.stamp, fill.stamp)) return last.out;
  const out = stampInto(template, shared, fill);
  shared.last = { stamp: fill.stamp, out };
  return out;
}

/** The bytes of a template with `fill`'s values in its holes: one buffer, or slices around the values when large. */
function stampInto(template: StampTemplate, shared: SharedBytes, fill: LiveFill): readonly Uint8Array[] {
  const holes = template.holes;
  let size = (shared.texts[0] as Uint8Array).byteLength;
  for (let i = 0; i < holes.length; i++) {
    size += valueAt(template, i, shared, fill).byteLength + (shared.texts[i + 1] as Uint8Array).byteLength;
  }
  if (size <= COPY_LIMIT) {
    // One buffer (from Node's pool when small), filled in place: an event per session per step
    // makes no lists to be collected.
    const out = Buffer.allocUnsafe(size);
    let at = copyInto(out, shared.texts[0] as Uint8Array, 0);
    for (let i = 0; i < holes.length; i++) {
      at = copyInto(out, valueAt(template, i, shared, fill), at);
      at = copyInto(out, shared.texts[i + 1] as Uint8Array, at);
    }
    return [out];
  }
  // An empty piece would read as the end of a chunked body to some writers: none is written.
  const pieces: Uint8Array[] = [];
  const add = (piece: Uint8Array): void => {
    if (piece.byteLength > 0) pieces.push(piece);
  };
  add(shared.texts[0] as Uint8Array);
  for (let i = 0; i < holes.length; i++) {
    add(valueAt(template, i, shared, fill));
    add(shared.texts[i + 1] as Uint8Array);
  }
  return pieces;
}

/** The live value for hole `i` of a template (the recorded one where the call has none). */
function valueAt(template: StampTemplate, i: number, shared: SharedBytes, fill: LiveFill): Uint8Array {
  if (template.holes[i] === 'id') return fill.id ?? (shared.recorded[i] as Uint8Array);
  const live = liveToken(template.recorded[i] as string, fill.stamp) === undefined ? undefined : fill.token;
  return live ?? (shared.recorded[i] as Uint8Array);
}

/**
 * A call's stamped answer as the engine keeps it (the engine's `ReplayCall`): the recorded events
 * it answers with and its live values, and the list of {@link LiveEvent}s only once an adapter
 * reads it. A class, so every call shares one getter rather than carrying a closure of its own.
 */
export class StampedCall {
  stop: (() => void) | undefined = undefined;
  finished = false;
  cancelled = false;
  private stamped: readonly LiveEvent[] | undefined;

  constructor(
    readonly exchange: ReplayExchange,
    readonly liveId: unknown,
    readonly recorded: readonly ReplayEvent[],
    readonly fill: LiveFill,
  ) {}

  get events(): readonly LiveEvent[] {
    this.stamped ??= this.recorded.map((event) => new LiveEvent(event, this.fill));
    return this.stamped;
  }
}

const answers = new WeakMap<ReplayExchange, readonly ReplayEvent[]>();

/**
 * The recorded events a call answers with: all of them, or, for a live request without a progress
 * token, all but the progress (the live server sends none). Found once per exchange and shared by
 * its calls, rather than a list per call.
 */
export function answerEvents(exchange: ReplayExchange, hasToken: boolean): readonly ReplayEvent[] {
  if (hasToken) return exchange.events;
  let events = answers.get(exchange);
  if (!events) {
    events = exchange.events.filter((e) => e.message?.method !== 'notifications/progress');
    answers.set(exchange, events);
  }
  return events;
}

/** Copies `piece` into `out` at `at`; returns where the next piece goes. */
function copyInto(out: Uint8Array, piece: Uint8Array, at: number): number {
  out.set(piece, at);
  return at + piece.byteLength;
}

/** One buffer holding `pieces` in order. */
export function concatBytes(pieces: readonly Uint8Array[], size?: number): Uint8Array {
  // Buffer.concat takes small buffers from Node's pool.
  return Buffer.concat(pieces, size);
}

/** When an event was recorded: its offset and the read it came in. */
interface StreamTiming {
  readonly offsetUs: number;
  readonly read?: number | undefined;
}

/** Offsets by list of events, for the head offset last asked: every call of one recording asks the same. */
const offsetsByEvents = new WeakMap<
  readonly StreamTiming[],
  { readonly headUs: number; readonly offsets: readonly number[] }
>();

/**
 * When a stream plays: its head at `headUs`, then each event. Events the recording received in one
 * read share the offset of the first of them, so they are written together again (one read for the
 * client), as recorded. Worked out once for a list of events (an exchange's, shared by its calls)
 * and a head offset, and shared, frozen, by every call that plays them.
 */
export function streamOffsets(events: readonly StreamTiming[], headUs: number): readonly number[] {
  const known = offsetsByEvents.get(events);
  if (known?.headUs === headUs) return known.offsets;
  const offsets: number[] = [headUs];
  for (let i = 0; i < events.length; i++) {
    const event = events[i] as StreamTiming;
    const previous = events[i - 1];
    const sameRead = previous !== undefined && event.read !== undefined && previous.read === event.read;
    offsets.push(sameRead ? (offsets[i] as number) : Math.max(headUs, event.offsetUs));
  }
  Object.freeze(offsets);
  offsetsByEvents.set(events, { headUs, offsets });
  return offsets;
}
