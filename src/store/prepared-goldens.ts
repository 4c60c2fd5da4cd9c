import { createHash } from 'node:crypto';
import type { Transcript } from '../transcript/frame.js';
import { type PreparedTranscript, prepareTranscript } from '../transcript/prepared-transcript.js';

/**
 * SHA-256 of a golden's content. Bytes are hashed as they are; well-formed text as its UTF-8, which
 * are the same bytes, so a golden read either way is one entry. Text holding a lone surrogate is
 * hashed as UTF-16, where the lone half cannot collide with U+FFFD. Text goes to the hash in one
 * piece: a golden read from disk is an external string, which a slice would first copy whole.
 */
function contentHash(content: string | Uint8Array): string {
  if (typeof content !== 'string') return createHash('sha256').update('utf8:').update(content).digest('base64');
  const utf8 = content.isWellFormed();
  return createHash('sha256')
    .update(utf8 ? 'utf8:' : 'utf16:')
    .update(content, utf8 ? 'utf8' : 'utf16le')
    .digest('base64');
}

/** Text of a golden read as bytes: decoded as reading the file as UTF-8 text decodes it. */
const textOf = (content: string | Uint8Array): string =>
  typeof content === 'string'
    ? content
    : Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('utf8');

/** Bounds of a {@link PreparedGoldens} cache. */
export interface PreparedGoldensLimits {
  /** Most goldens kept. @default 64 */
  readonly maxEntries?: number;
  /** Most characters of frame text and bytes kept, all goldens together; a larger golden is prepared but not kept. @default 64 MiB */
  readonly maxChars?: number;
}

/**
 * Goldens parsed and prepared once, found again by the SHA-256 of their content: the same bytes read
 * twice (the same golden compared by several tests, or by one test run many times) are parsed and
 * normalised once. Keyed by content, so an edited file is a new entry and can never be served
 * stale; bounded by count and by size, least recently used first out, so a long run does not grow.
 */
export class PreparedGoldens {
  private readonly entries = new Map<string, Entry>();
  /** The key of the bytes last read from each source: the same bytes again need no hashing. */
  private readonly lastKey = new Map<string, string>();
  private chars = 0;
  private readonly maxEntries: number;
  private readonly maxChars: number;

  constructor(limits: PreparedGoldensLimits = {}) {
    this.maxEntries = limits.maxEntries ?? 64;
    this.maxChars = limits.maxChars ?? 64 * 1024 * 1024;
  }

  /**
   * The prepared golden whose content is `content` (its text, or its bytes: then a golden seen
   * before is found without decoding it), parsing its text with `parse` the first time. Bytes read
   * from a `source` (a path) that equal, byte for byte, the bytes last kept from it are found by that
   * comparison, without hashing (the bytes are kept as given, not copied: do not change them after).
   * What `parse` throws is thrown and nothing is kept, so every read of a bad file reports it afresh.
   */
  get(content: string | Uint8Array, parse: (text: string) => Transcript, source?: string): PreparedTranscript {
    const last = source === undefined ? undefined : this.lastKey.get(source);
    const same = last === undefined ? undefined : this.entries.get(last);
    const key =
      same?.bytes !== undefined && typeof content !== 'string' && sameBytes(same.bytes, content)
        ? (last as string)
        : contentHash(content);
    const found = this.entries.get(key);
    if (found) {
      this.entries.delete(key);
      this.entries.set(key, found);
      this.remember(source, key, found);
      return found.prepared;
    }
    const prepared = prepareTranscript(parse(textOf(content)));
    const entry: Entry = { prepared, ...(typeof content !== 'string' && source !== undefined && { bytes: content }) };
    const chars = sizeOf(entry);
    if (chars <= this.maxChars) {
      this.entries.set(key, entry);
      this.chars += chars;
      this.remember(source, key, entry);
      this.evict();
    }
    return prepared;
  }

  /** Number of goldens kept now. */
  get size(): number {
    return this.entries.size;
  }

  /** Forgets every golden. */
  clear(): void {
    this.entries.clear();
    this.lastKey.clear();
    this.chars = 0;
  }

  private remember(source: string | undefined, key: string, entry: Entry): void {
    if (source === undefined || entry.bytes === undefined) return;
    this.lastKey.delete(source);
    this.lastKey.set(source, key);
    // Sources are names only; keep as many as goldens, the oldest leaving first.
    for (const oldest of this.lastKey.keys()) {
      if (this.lastKey.size <= this.maxEntries) break;
      this.lastKey.delete(oldest);
    }
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.chars <= this.maxChars) return;
      this.entries.delete(key);
      this.chars -= sizeOf(entry);
    }
  }
}

/** A kept golden: prepared, with the bytes it was read from when they came with a source. */
interface Entry {
  readonly prepared: PreparedTranscript;
  readonly bytes?: Uint8Array;
}

const sizeOf = (entry: Entry): number => entry.prepared.chars + (entry.bytes?.byteLength ?? 0);

/** Byte-for-byte equality, as one native comparison. */
const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  a.byteLength === b.byteLength &&
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
