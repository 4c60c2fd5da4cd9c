import { isAscii } from 'node:buffer';
import { canonicalJson } from './canonical-json.js';
import type { Frame, Transcript } from './frame.js';

// ignoreBOM keeps a leading byte order mark as a character: the frame must hold every byte.
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * `raw` for bytes that are valid UTF-8, `rawBase64` for bytes that are not, so text stays
 * readable in a git diff and no byte is ever lost.
 */
export function encodeRaw(bytes: Uint8Array): { raw: string } | { rawBase64: string } {
  // ASCII (most JSON-RPC traffic) maps byte for character: copying it is several times faster
  // than a validating UTF-8 decode, which the fetch tap would otherwise pay on every body.
  if (isAscii(bytes)) return { raw: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1') };
  try {
    return { raw: strictDecoder.decode(bytes) };
  } catch {
    return { rawBase64: Buffer.from(bytes).toString('base64') };
  }
}

/**
 * {@link encodeRaw} of bytes a lenient UTF-8 decoder already made into `text` (a bad sequence as
 * U+FFFD, a leading byte order mark dropped, as an SSE block's text is): when neither happened,
 * that text is the `raw`, and a large body is not copied a second time.
 */
export function encodeDecodedRaw(bytes: Uint8Array, text: string): { raw: string } | { rawBase64: string } {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return bom || text.includes('\uFFFD') ? encodeRaw(bytes) : { raw: text };
}

/**
 * Serializes a transcript as a golden: JSON Lines, UTF-8, LF, sorted keys, the header first
 * (with the frame count, so a file cut short at a line boundary is still detected).
 *
 * @example
 * await writeFile('goldens/progress.jsonl', serializeTranscript(transcript))
 */
export function serializeTranscript(transcript: Transcript): string {
  const lines = [canonicalJson({ ...transcript.header, frames: transcript.frames.length })];
  for (const frame of transcript.frames) lines.push(canonicalJson(frame satisfies Frame));
  return `${lines.join('\n')}\n`;
}
