import { createHash } from 'node:crypto';
import type { Transcript } from '../transcript/frame.js';
import { type PreparedTranscript, prepareTranscript } from '../transcript/prepared-transcript.js';

/** Characters hashed at a time: the UTF-8 copy the hash needs stays this small, however large the golden. */
const HASH_CHUNK = 64 * 1024;

/** `String.prototype.isWellFormed` (every Node this package runs on has it; TypeScript's ES2023 library does not declare it). */
const isWellFormed = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * SHA-256 of the text's code units, a chunk at a time. Well-formed text is hashed as UTF-8 (one
 * byte per character for ASCII), with no chunk ending between the halves of a pair; text holding
 * a lone surrogate is hashed as UTF-16, where the lone half cannot collide with U+FFFD.
 */
function contentHash(text: string): string {
  const utf8 = isWellFormed(text);
  const digest = createHash('sha256').update(utf8 ? 'utf8:' : 'utf16:');
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + HASH_CHUNK);
    const last = text.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end++;
    digest.update(text.slice(at, end), utf8 ? 'utf8' : 'utf16le');
    at = end;
  }
  return digest.digest('base64');
}

/** Bounds of a {@link PreparedGoldens} cache. */
export interface PreparedGoldensLimits {
  /** Most goldens kept. @default 64 */
  readonly maxEntries?: number;
  /** Most characters of frame text kept, all goldens together; a larger golden is prepared but not kept. @default 64 MiB */
  readonly maxChars?: number;
}

/**
 * Goldens parsed and prepared once, found again by the SHA-256 of their text: the same bytes read
 * twice (the same golden compared by several tests, or by one test run many times) are parsed and
 * normalised once. Keyed by content, so an edited file is a new entry and can never be served
 * stale; bounded by count and by size, least recently used first out, so a long run does not grow.
 */
export class PreparedGoldens {
  private readonly entries = new Map<string, PreparedTranscript>();
  private chars = 0;
  private readonly maxEntries: number;
  private readonly maxChars: number;

  constructor(limits: PreparedGoldensLimits = {}) {
    this.maxEntries = limits.maxEntries ?? 64;
    this.maxChars = limits.maxChars ?? 64 * 1024 * 1024;
  }

  /**
   * The prepared golden whose text is `text`, parsing it with `parse` the first time. What `parse`
   * throws is thrown and nothing is kept, so every read of a bad file reports it afresh.
   */
  get(text: string, parse: (text: string) => Transcript): PreparedTranscript {
    const key = contentHash(text);
    const found = this.entries.get(key);
    if (found) {
      this.entries.delete(key);
      this.entries.set(key, found);
      return found;
    }
    const prepared = prepareTranscript(parse(text));
    if (prepared.chars <= this.maxChars) {
      this.entries.set(key, prepared);
      this.chars += prepared.chars;
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
    this.chars = 0;
  }

  private evict(): void {
    for (const [key, prepared] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.chars <= this.maxChars) return;
      this.entries.delete(key);
      this.chars -= prepared.chars;
    }
  }
}
