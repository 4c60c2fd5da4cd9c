import { createHash } from 'node:crypto';
import type { Transcript } from '../transcript/frame.js';
import { type PreparedTranscript, prepareTranscript } from '../transcript/prepared-transcript.js';

/** `String.prototype.isWellFormed` (every Node this package runs on has it; TypeScript's ES2023 library does not declare it). */
const isWellFormed = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * SHA-256 of a golden's content. Bytes are hashed as they are; well-formed text as its UTF-8, which
 * are the same bytes, so a golden read either way is one entry. Text holding a lone surrogate is
 * hashed as UTF-16, where the lone half cannot collide with U+FFFD. Text goes to the hash in one
 * piece: a golden read from disk is an external string, which a slice would first copy whole.
 */
function contentHash(content: string | Uint8Array): string {
  if (typeof content !== 'string') return createHash('sha256').update('utf8:').update(content).digest('base64');
  const utf8 = isWellFormed(content);
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
   * The prepared golden whose content is `content` (its text, or its bytes: then a golden seen
   * before is found without decoding it), parsing its text with `parse` the first time. What
   * `parse` throws is thrown and nothing is kept, so every read of a bad file reports it afresh.
   */
  get(content: string | Uint8Array, parse: (text: string) => Transcript): PreparedTranscript {
    const key = contentHash(content);
    const found = this.entries.get(key);
    if (found) {
      this.entries.delete(key);
      this.entries.set(key, found);
      return found;
    }
    const prepared = prepareTranscript(parse(textOf(content)));
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
