import type { Transcript } from '../transcript/frame.js';
import { type ParseOptions, parseTranscript as parseLines } from '../transcript/parse.js';
import { withRecordCommand } from './record-command.js';

/**
 * Parses a golden (JSON Lines). Every problem is a {@link GoldenError} naming the source, the line
 * and the fix (the command that records the golden again, read from its header): `E_GOLDEN_PARSE`
 * for bad or truncated content, `E_GOLDEN_VERSION` for an older, newer or unknown format.
 *
 * @example
 * const transcript = parseTranscript(await readFile(path, 'utf8'), { source: path })
 */
export function parseTranscript(text: string, options: ParseOptions = {}): Transcript {
  return parseLines(text, withRecordCommand(options));
}
