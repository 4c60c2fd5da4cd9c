import type * as z from 'zod';
import { GoldenError } from '../errors.js';
import { type Frame, GOLDEN_FORMAT, type Transcript } from './frame.js';
import { shown, valueAt } from './golden-notes.js';
import { FrameSchema, HeaderLineSchema } from './golden-schema.js';
import { isJsonObject } from './json-object.js';

/** Options of {@link parseTranscript}. */
export interface ParseOptions {
  /** Where the text came from, for error messages. @default '<golden>' */
  readonly source?: string;
  /** The command that regenerates this golden, for error messages. @default derived from the header's scenario */
  readonly regenerate?: string;
}

/** Options of {@link TranscriptReader}: the caller (which knows the commands) names the fix. */
export interface ReaderOptions extends ParseOptions {
  /**
   * The command that regenerates a golden with this first line (a JSON object, not yet validated)
   * kept in `folder`; undefined when the header does not say, and then `regenerate` stands. Without
   * a command, errors say to record the golden again.
   */
  readonly regenerateFor?: (
    header: Readonly<Record<string, unknown>>,
    folder: string | undefined,
  ) => string | undefined;
}

/** How an error says to fix a golden: with the command when one is known. */
const again = (command: string | undefined): string =>
  command === undefined ? 'record it again' : `regenerate it with \`${command}\``;
const capital = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

type Fail = (line: number, what: string) => never;

/** The first problem zod found, said as the reader says it: the line, the field, what it holds, what is expected. */
function describeIssue(issue: z.core.$ZodIssue, value: Record<string, unknown>): string {
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `"${k}"`).join(', ');
    return `has unknown field${issue.keys.length > 1 ? 's' : ''} ${keys}; ${GOLDEN_FORMAT} lines are closed (extra facts about a recording go in the header's "notes")`;
  }
  // A key inside the header's notes is named by its path: "notes.lint.rate".
  const field = issue.path.map(String).join('.');
  const got = valueAt(value, issue.path);
  if (field === 'rawBase64' && typeof got === 'string' && 'raw' in value) {
    return 'has both "raw" and "rawBase64"; keep one';
  }
  if (field === 'rawBase64' && typeof got === 'string') {
    const bad = /[^A-Za-z0-9+/=]/.exec(got);
    return `field "rawBase64" is not valid base64 (${bad ? `character ${JSON.stringify(bad[0])} at offset ${bad.index}` : `length ${got.length} or padding is wrong`})`;
  }
  if (field === 'raw' && typeof got === 'string') return `field "raw" is not ${issue.message}`;
  if (got === undefined) return `has no "${field}"; expected ${issue.message}`;
  return `has "${field}" ${shown(got)}; expected ${issue.message}`;
}

function checkFrame(value: unknown, line: number, fail: Fail): Frame {
  if (!isJsonObject(value)) fail(line, 'is not a JSON object');
  const result = FrameSchema.safeParse(value);
  if (!result.success) fail(line, describeIssue(result.error.issues[0] as z.core.$ZodIssue, value));
  // The value itself, not zod's copy: keys such as "__proto__" in header arguments survive as read.
  return value as Frame;
}

function checkHeader(
  value: unknown,
  fail: Fail,
  text: string,
  regenerate: string | undefined,
): { frames: number; header: Transcript['header'] } {
  if (!isJsonObject(value) || typeof value.format !== 'string') {
    fail(1, `is not a transcript header: it needs "format": "${GOLDEN_FORMAT}"`);
  }
  const version = /^mcp-golden\/(\d+)$/.exec(value.format);
  if (!version) {
    throw new GoldenError(
      'E_GOLDEN_VERSION',
      `${text} is in an unknown format ${JSON.stringify(value.format)}; this mcp-golden reads ${GOLDEN_FORMAT}. It is not an mcp-golden golden, or it was damaged: ${again(regenerate)}.`,
    );
  }
  if (value.format !== GOLDEN_FORMAT) {
    const older = Number(version[1]) < Number(GOLDEN_FORMAT.split('/')[1]);
    throw new GoldenError(
      'E_GOLDEN_VERSION',
      older
        ? `${text} is in format ${value.format}, older than this mcp-golden reads (${GOLDEN_FORMAT}). ${capital(again(regenerate))}.`
        : `${text} is in format ${value.format}, newer than this mcp-golden reads (${GOLDEN_FORMAT}). Upgrade mcp-golden, or ${regenerate === undefined ? 'record the golden again with this version' : `regenerate the golden with this version: \`${regenerate}\``}.`,
    );
  }
  const result = HeaderLineSchema.safeParse(value);
  if (!result.success) fail(1, describeIssue(result.error.issues[0] as z.core.$ZodIssue, value));
  const { frames, ...header } = value;
  return { frames: frames as number, header: header as unknown as Transcript['header'] };
}

/**
 * Reads a golden line by line, so a large file never has to be one string. Feed it each line
 * (without its newline) with {@link TranscriptReader.line} or, from bytes, {@link TranscriptReader.bytes}
 * (which refuses invalid UTF-8), then call {@link TranscriptReader.finish}.
 */
export class TranscriptReader {
  private header: Transcript['header'] | undefined;
  private expected = 0;
  private readonly frames: Frame[] = [];
  private lineNo = 0;
  private regenerate: string | undefined;
  private readonly what: string;
  private readonly source: string | undefined;
  private readonly regenerateFor: ReaderOptions['regenerateFor'];
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  constructor(options: ReaderOptions = {}) {
    this.what = `Failed to read golden "${options.source ?? '<golden>'}"`;
    this.source = options.source;
    this.regenerate = options.regenerate;
    this.regenerateFor = options.regenerateFor;
  }

  private readonly fail: Fail = (line, problem) => {
    throw new GoldenError(
      'E_GOLDEN_PARSE',
      `${this.what}: line ${line} ${problem}. Each line must be one frame. Fix line ${line} or ${again(this.regenerate)}.`,
    );
  };

  /** One line of bytes, without its LF. Invalid UTF-8 is an error naming the line and the field. */
  bytes(line: Uint8Array): void {
    let text: string;
    try {
      text = this.decoder.decode(line);
    } catch {
      const lossy = new TextDecoder().decode(line);
      const field = /"([^"]+)":"[^"]*\uFFFD/.exec(lossy)?.[1];
      const at = this.lineNo + 1;
      if (at === 1) this.learnScenario(lossy);
      this.fail(
        at,
        `is not valid UTF-8${field ? ` (in field "${field}")` : ''}: a golden is UTF-8 text, and bytes that are not UTF-8 belong base64-encoded in "rawBase64"`,
      );
    }
    this.line(text);
  }

  /** Reports a file whose `line` (its last) has no LF; `firstLine` names the scenario in the fix command. */
  truncated(firstLine: string, line: number): never {
    this.learnScenario(firstLine);
    throw new GoldenError(
      'E_GOLDEN_PARSE',
      `${this.what}: the file is truncated (line ${line} does not end with a newline). ${capital(again(this.regenerate))}.`,
    );
  }

  private learnScenario(firstLine: string): void {
    if (this.regenerateFor === undefined) return;
    try {
      const value: unknown = JSON.parse(firstLine);
      const slash = this.source?.lastIndexOf('/') ?? -1;
      const folder = this.source === undefined ? undefined : slash < 0 ? '.' : this.source.slice(0, slash) || '/';
      const command = isJsonObject(value) ? this.regenerateFor(value, folder) : undefined;
      if (command !== undefined) this.regenerate = command;
    } catch {
      // The header's own error says what is wrong with it.
    }
  }

  /** One line of text, without its LF. */
  line(text: string): void {
    const at = ++this.lineNo;
    if (at === 1) this.learnScenario(text);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.fail(at, `is not valid JSON (${(error as Error).message})`);
    }
    if (at === 1) {
      const { frames, header } = checkHeader(value, this.fail, `${this.what}: line 1`, this.regenerate);
      this.header = header;
      this.expected = frames;
      return;
    }
    this.frames.push(checkFrame(value, at, this.fail));
  }

  /** The transcript read, once every line was given. */
  finish(): Transcript {
    if (this.header === undefined) this.fail(1, 'is missing: the file is empty');
    if (this.frames.length !== this.expected) {
      throw new GoldenError(
        'E_GOLDEN_PARSE',
        `${this.what}: the file is truncated or edited: the header announces ${this.expected} frames, the file has ${this.frames.length}. ${capital(again(this.regenerate))}.`,
      );
    }
    return { header: this.header as Transcript['header'], frames: this.frames };
  }
}

/**
 * Parses a golden (JSON Lines). Every problem is a {@link GoldenError} naming the source, the line
 * and the fix (the command `options` name, else "record it again"): `E_GOLDEN_PARSE` for bad or
 * truncated content, `E_GOLDEN_VERSION` for an older, newer or unknown format. The package's
 * `parseTranscript` (store/parse-golden.ts) names the record command read from the header.
 *
 * @example
 * const transcript = parseTranscript(await readFile(path, 'utf8'), { source: path })
 */
export function parseTranscript(text: string, options: ReaderOptions = {}): Transcript {
  const reader = new TranscriptReader(options);
  if (text.length === 0) return reader.finish();
  const lines = text.split('\n');
  const last = lines.pop() as string;
  if (last !== '') {
    reader.truncated(lines[0] ?? last, lines.length + 1);
  }
  for (const line of lines) reader.line(line);
  return reader.finish();
}
