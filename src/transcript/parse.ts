import { GoldenError } from '../errors.js';
import { type Channel, type Direction, type EndReason, type Frame, GOLDEN_FORMAT, type Transcript } from './frame.js';

/** Options of {@link parseTranscript}. */
export interface ParseOptions {
  /** Where the text came from, for error messages. @default '<golden>' */
  readonly source?: string;
  /** The command that regenerates this golden, for error messages. @default derived from the header's scenario */
  readonly regenerate?: string;
}

const DIRECTIONS: ReadonlySet<string> = new Set<Direction>(['client->server', 'server->client']);
const CHANNELS: ReadonlySet<string> = new Set<Channel>(['http', 'json', 'sse', 'stdio', 'text', 'read', 'end']);
const END_REASONS: ReadonlySet<string> = new Set<EndReason>(['complete', 'cancelled', 'error', 'open']);

type Fail = (line: number, what: string) => never;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function checkFrame(value: unknown, line: number, fail: Fail): Frame {
  if (!isObject(value)) fail(line, 'is not a JSON object');
  const { t, dir, channel, exchange } = value;
  if (typeof t !== 'number' || !Number.isSafeInteger(t) || t < 0) {
    fail(line, `has "t" ${JSON.stringify(t)}; expected whole microseconds >= 0`);
  }
  if (typeof dir !== 'string' || !DIRECTIONS.has(dir)) {
    fail(line, `has "dir" ${JSON.stringify(dir)}; expected "client->server" or "server->client"`);
  }
  if (typeof channel !== 'string' || !CHANNELS.has(channel)) {
    fail(line, `has "channel" ${JSON.stringify(channel)}; expected one of ${[...CHANNELS].join(', ')}`);
  }
  if (typeof exchange !== 'number' || !Number.isSafeInteger(exchange) || exchange < 0) {
    fail(line, `has "exchange" ${JSON.stringify(exchange)}; expected a whole number >= 0`);
  }
  for (const key of ['raw', 'rawBase64', 'method', 'url', 'error'] as const) {
    if (key in value && typeof value[key] !== 'string') fail(line, `has a non-string "${key}"`);
  }
  if ('raw' in value && 'rawBase64' in value) fail(line, 'has both "raw" and "rawBase64"; keep one');
  for (const key of ['status', 'size'] as const) {
    if (key in value && (typeof value[key] !== 'number' || !Number.isSafeInteger(value[key]))) {
      fail(line, `has a non-integer "${key}"`);
    }
  }
  if ('headers' in value) {
    const headers = value.headers;
    if (!isObject(headers) || Object.values(headers).some((v) => typeof v !== 'string')) {
      fail(line, 'has "headers" that are not an object of strings');
    }
  }
  if ('reason' in value && (typeof value.reason !== 'string' || !END_REASONS.has(value.reason))) {
    fail(line, `has "reason" ${JSON.stringify(value.reason)}; expected one of ${[...END_REASONS].join(', ')}`);
  }
  return value as unknown as Frame;
}

function checkHeader(value: unknown, fail: Fail, text: string): { frames: number; header: Transcript['header'] } {
  if (!isObject(value) || typeof value.format !== 'string') {
    fail(1, `is not a transcript header: it needs "format": "${GOLDEN_FORMAT}"`);
  }
  const version = /^mcp-golden\/(\d+)$/.exec(value.format);
  if (!version) fail(1, `has "format" ${JSON.stringify(value.format)}; expected "${GOLDEN_FORMAT}"`);
  if (value.format !== GOLDEN_FORMAT) {
    throw new GoldenError(
      'E_GOLDEN_VERSION',
      `${text} is in format ${value.format}, newer than this mcp-golden reads (${GOLDEN_FORMAT}). Upgrade mcp-golden, or regenerate the golden with this version.`,
    );
  }
  for (const key of ['protocolVersion', 'target', 'recorder'] as const) {
    if (typeof value[key] !== 'string') fail(1, `has no string "${key}"`);
  }
  if (value.transport !== 'http' && value.transport !== 'stdio') {
    fail(1, `has "transport" ${JSON.stringify(value.transport)}; expected "http" or "stdio"`);
  }
  if (typeof value.frames !== 'number' || !Number.isSafeInteger(value.frames) || value.frames < 0) {
    fail(1, 'has no frame count ("frames")');
  }
  const { frames, ...header } = value;
  return { frames, header: header as unknown as Transcript['header'] };
}

function scenarioOf(firstLine: string): string | undefined {
  try {
    const value: unknown = JSON.parse(firstLine);
    return isObject(value) && typeof value.scenario === 'string' ? value.scenario : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Parses a golden (JSON Lines). Every problem is a {@link GoldenError} naming the source, the line
 * and the fix: `E_GOLDEN_PARSE` for bad or truncated content, `E_GOLDEN_VERSION` for a newer format.
 *
 * @example
 * const transcript = parseTranscript(await readFile(path, 'utf8'), { source: path })
 */
export function parseTranscript(text: string, options: ParseOptions = {}): Transcript {
  const source = options.source ?? '<golden>';
  const lines = text.split('\n');
  const scenario = scenarioOf(lines[0] ?? '');
  const regenerate = options.regenerate ?? `npx mcp-golden record${scenario ? ` ${scenario}` : ''}`;
  const what = `Failed to read golden "${source}"`;
  const fail: Fail = (line, problem) => {
    throw new GoldenError(
      'E_GOLDEN_PARSE',
      `${what}: line ${line} ${problem}. Each line must be one frame. Fix line ${line} or regenerate it with \`${regenerate}\`.`,
    );
  };
  if (text.length === 0) fail(1, 'is missing: the file is empty');
  if (!text.endsWith('\n')) {
    throw new GoldenError(
      'E_GOLDEN_PARSE',
      `${what}: the file is truncated (line ${lines.length} does not end with a newline). Regenerate it with \`${regenerate}\`.`,
    );
  }
  lines.pop();
  const values = lines.map((line, index) => {
    try {
      return JSON.parse(line) as unknown;
    } catch (error) {
      return fail(index + 1, `is not valid JSON (${(error as Error).message})`);
    }
  });
  const { frames: expected, header } = checkHeader(values[0], fail, `${what}: line 1`);
  const frames = values.slice(1).map((value, index) => checkFrame(value, index + 2, fail));
  if (frames.length !== expected) {
    throw new GoldenError(
      'E_GOLDEN_PARSE',
      `${what}: the file is truncated or edited: the header announces ${expected} frames, the file has ${frames.length}. Regenerate it with \`${regenerate}\`.`,
    );
  }
  return { header, frames };
}
