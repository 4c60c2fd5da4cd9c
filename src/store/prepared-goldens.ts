import { createHash } from 'node:crypto';
import type { Transcript } from '../transcript/frame.js';
import { type PreparedTranscript, prepareTranscript } from '../transcript/prepared-transcript.js';

/**
 * SHA-256 of a golden's text: well-formed text as its UTF-8; text holding a lone surrogate as
 * UTF-16, where the lone half cannot collide with U+FFFD. The text goes to the hash in one piece,
 * not in slices, which would each be copied first.
 */
function contentHash(content: string): string {
  const utf8 = content.isWellFormed();
  return createHash('sha256')
    .update(utf8 ? 'utf8:' : 'utf16:')
    .update(content, utf8 ? 'utf8' : 'utf16le')
    .digest('base64');
}

/** Bounds of a {@link PreparedGoldens} cache. */
export interface PreparedGoldensLimits {
  /** Most goldens kept. @default 64 */
  readonly maxEntries?: number;
  /** Most characters of frame text and bytes kept, all goldens together; a larger golden is prepared but not kept. @default 64 MiB */
  readonly maxChars?: number;
}

/**
 * Goldens parsed and prepared once, found again by the SHA-256 of their content: the same text read
 * twice (the same golden compared by several tests, or by one test run many times) are parsed and
 * normalised once. Keyed by content, so an edited file is a new entry and can never be served
 * stale; bounded by count and by size, least recently used first out, so a long run does not grow.
 */
export class PreparedGoldens {
  private readonly entries = new Map<string, Entry>();
  /** The key of the text last read from each source: the same text again needs no hashing. */
  private readonly lastKey = new Map<string, string>();
  private chars = 0;
  private readonly maxEntries: number;
  private readonly maxChars: number;

  constructor(limits: PreparedGoldensLimits = {}) {
    this.maxEntries = limits.maxEntries ?? 64;
    this.maxChars = limits.maxChars ?? 64 * 1024 * 1024;
  }

  /**
   * The prepared golden whose text is `content`, parsing it with `parse` the first time. Text read
   * from a `source` (a path) that equals the text last kept from it is found by that comparison (one
   * native compare, 0.1 ms for 3 MB), without hashing. What `parse` throws is thrown and nothing is
   * kept, so every read of a bad file reports it afresh.
   */
  get(content: string, parse: (text: string) => Transcript, source?: string): PreparedTranscript {
    const last = source === undefined ? undefined : this.lastKey.get(source);
    const same = last === undefined ? undefined : this.entries.get(last);
    const key = same?.text !== undefined && same.text === content ? (last as string) : contentHash(content);
    const found = this.entries.get(key);
    if (found) {
      this.entries.delete(key);
      this.entries.set(key, found);
      this.remember(source, key, found);
      return found.prepared;
    }
    const prepared = prepareTranscript(parse(content));
    const entry: Entry = { prepared, ...(source !== undefined && { text: content }) };
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
    if (source === undefined || entry.text === undefined) return;
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

/** A kept golden: prepared, with the text it was read from when that came with a source. */
interface Entry {
  readonly prepared: PreparedTranscript;
  readonly text?: string;
}

const sizeOf = (entry: Entry): number => entry.prepared.chars + (entry.text?.length ?? 0);
