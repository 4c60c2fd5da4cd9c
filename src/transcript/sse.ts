import { splitLineEnds } from './line-ends.js';

/**
 * One server-sent event block as it was on the wire: every byte from its first line through the
 * blank line that ended it, and the fields parsed from those lines.
 */
export interface SseBlock {
  /** The block's bytes, terminators included. */
  readonly bytes: Uint8Array;
  /**
   * The block's bytes decoded as an SSE reader decodes them: UTF-8, a bad sequence as U+FFFD, a
   * leading byte order mark dropped.
   */
  readonly text: string;
  /** `event:` field, when present. */
  readonly event?: string;
  /** `id:` field, when present (may be empty). */
  readonly id?: string;
  /** `retry:` field, when present and a whole number. */
  readonly retry?: number;
  /** `data:` lines joined with `\n`; `undefined` when the block has no data line. */
  readonly data?: string;
  /** Comment lines (without the leading colon). */
  readonly comments: readonly string[];
  /** True when the stream ended before the blank line that closes the block. */
  readonly incomplete: boolean;
}

const LF = 0x0a;
const CR = 0x0d;
const decoder = new TextDecoder('utf-8');
const SURROGATE = /[\uD800-\uDFFF]/;
const BOM = '\uFEFF';

function parseFields(bytes: Uint8Array, incomplete: boolean): SseBlock {
  const text = decoder.decode(bytes);
  const parts = splitLineEnds(text);
  return { bytes, text, ...fieldsOf(parts.filter((_, i) => i % 2 === 0)), incomplete };
}

function fieldsOf(lines: readonly string[]): Omit<SseBlock, 'bytes' | 'text' | 'incomplete'> {
  const comments: string[] = [];
  const data: string[] = [];
  let event: string | undefined;
  let id: string | undefined;
  let retry: number | undefined;
  for (const line of lines) {
    if (line === '') continue;
    if (line.startsWith(':')) {
      comments.push(line.slice(1));
      continue;
    }
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (name === 'data') data.push(value);
    else if (name === 'event') event = value;
    else if (name === 'id') id = value;
    else if (name === 'retry' && /^\d+$/.test(value)) retry = Number(value);
  }
  return {
    ...(event !== undefined && { event }),
    ...(id !== undefined && { id }),
    ...(retry !== undefined && { retry }),
    ...(data.length > 0 && { data: data.join('\n') }),
    comments,
  };
}

/**
 * Incremental SSE splitter working on bytes, so that blocks keep their exact bytes even when a
 * read ends inside a line, inside a CRLF pair or inside a multi-byte UTF-8 character.
 *
 * @example
 * const parser = new SseParser()
 * for (const chunk of chunks) for (const block of parser.push(chunk)) console.log(block.data)
 * parser.end() // the unterminated tail, if any
 */
export class SseParser {
  /** Unconsumed bytes live in `buffer[head, tail)`; the buffer grows by doubling, so appends are amortised O(1). */
  private buffer: Uint8Array = new Uint8Array(0);
  private head = 0;
  private tail = 0;
  /** Absolute offset in `buffer` from which to look for the next line end. */
  private scanFrom = 0;
  /** Whether `scanFrom` is at the start of a line. */
  private lineStart = true;

  /** Feeds one read; returns the blocks it completed. */
  push(chunk: Uint8Array): SseBlock[] {
    this.append(chunk);
    return this.scan(false);
  }

  private append(chunk: Uint8Array): void {
    if (this.tail + chunk.length > this.buffer.length) {
      const live = this.tail - this.head;
      const size = Math.max(live + chunk.length, this.buffer.length * 2, 1024);
      const grown = size > this.buffer.length ? new Uint8Array(size) : this.buffer;
      grown.set(this.buffer.subarray(this.head, this.tail), 0);
      this.buffer = grown;
      this.scanFrom -= this.head;
      this.tail = live;
      this.head = 0;
    }
    this.buffer.set(chunk, this.tail);
    this.tail += chunk.length;
  }

  /** Cuts complete blocks off the buffer; at the end of the stream a final CR is a whole line end. */
  private scan(final: boolean): SseBlock[] {
    const blocks: SseBlock[] = [];
    const buffer = this.buffer;
    // Line ends are found with the native byte search (memchr), not a loop over every byte: a
    // megabyte event is one long line. The next LF and the next CR are each searched for once per
    // position passed, so a body with no CR (most of them) costs one search for CR per read.
    const view = Buffer.from(buffer.buffer, buffer.byteOffset, this.tail);
    let blockStart = this.head;
    let i = this.scanFrom;
    let atLineStart = this.lineStart;
    let nextLf = -2;
    let nextCr = -2;
    while (i < this.tail) {
      if (nextLf !== -1 && nextLf < i) nextLf = view.indexOf(LF, i);
      if (nextCr !== -1 && nextCr < i) nextCr = view.indexOf(CR, i);
      const end = nextLf < 0 ? nextCr : nextCr < 0 ? nextLf : Math.min(nextLf, nextCr);
      if (end < 0) {
        atLineStart = false;
        i = this.tail;
        break;
      }
      if (end > i) atLineStart = false;
      i = end;
      let lineEnd = i + 1;
      if (buffer[i] === CR) {
        // A CR as the last byte may be the first half of CRLF: wait for the next read.
        if (i + 1 >= this.tail && !final) break;
        if (i + 1 < this.tail && buffer[i + 1] === LF) lineEnd = i + 2;
      }
      // A blank line closes the block. A blank line with nothing before it becomes an empty
      // block of its own, so that no byte of the stream is lost.
      if (atLineStart) {
        blocks.push(parseFields(buffer.slice(blockStart, lineEnd), false));
        blockStart = lineEnd;
      }
      atLineStart = true;
      i = lineEnd;
    }
    this.head = blockStart;
    this.scanFrom = i;
    this.lineStart = atLineStart;
    return blocks;
  }

  /** Ends the stream; returns the unterminated tail as an `incomplete` block, if any bytes remain. */
  end(): SseBlock[] {
    const blocks = this.scan(true);
    if (this.tail > this.head) blocks.push(parseFields(this.buffer.slice(this.head, this.tail), true));
    this.buffer = new Uint8Array(0);
    this.head = 0;
    this.tail = 0;
    this.scanFrom = 0;
    this.lineStart = true;
    return blocks;
  }
}

/**
 * The first block of a complete SSE body given as text: the same block as `splitSse` gives for the
 * text's UTF-8 bytes, read without encoding the text to bytes and decoding it back (its `bytes` are
 * encoded only when asked for). `undefined` for an empty body.
 */
export function firstSseBlock(text: string): SseBlock | undefined {
  // Lone surrogates would become U+FFFD on the way through bytes: let the byte path say so exactly.
  if (SURROGATE.test(text)) return splitSse(new TextEncoder().encode(text))[0];
  if (text === '') return undefined;
  const parts = splitLineEnds(text);
  let end = text.length;
  let lines = parts.length;
  let offset = 0;
  for (let i = 0; i + 1 < parts.length; i += 2) {
    offset += (parts[i] as string).length + (parts[i + 1] as string).length;
    if (parts[i] === '') {
      end = offset;
      lines = i + 1;
      break;
    }
  }
  const fields = parts.slice(0, lines).filter((_, i) => i % 2 === 0);
  // The byte path decodes each block on its own, and the decoder drops a leading byte order mark.
  if (fields[0]?.startsWith(BOM)) fields[0] = fields[0].slice(1);
  const block = text.slice(0, end);
  let bytes: Uint8Array | undefined;
  return {
    get bytes(): Uint8Array {
      bytes ??= new TextEncoder().encode(block);
      return bytes;
    },
    text: block.startsWith(BOM) ? block.slice(1) : block,
    ...fieldsOf(fields),
    incomplete: end === text.length && lines === parts.length,
  };
}

/** Splits a complete SSE body into blocks (the tail, if unterminated, comes last and `incomplete`). */
export function splitSse(body: Uint8Array): SseBlock[] {
  const parser = new SseParser();
  return [...parser.push(body), ...parser.end()];
}
