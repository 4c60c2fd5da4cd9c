import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { GoldenError } from '../errors.js';
import type { Transcript } from '../transcript/frame.js';
import { TranscriptReader } from '../transcript/parse.js';
import { serializeTranscript } from '../transcript/serialize.js';
import { temporaryNameOf } from './interrupted-writes.js';
import { withRecordCommand } from './record-command.js';

/** File extension of goldens. */
export const GOLDEN_EXTENSION = '.jsonl';

/**
 * How to record the golden at `path`: from the user's own server (its scenario named after the file),
 * or, for one of the reference goldens, by its scenario name alone.
 */
export function regenerateCommand(path: string): string {
  const name = basename(path, GOLDEN_EXTENSION);
  return `npx mcp-golden record --target <url> --scenarios <scenarios.json> --out ${dirname(path)}\` (or --stdio '<server command>' for a stdio server; a scenario named "${name}" writes it), or, if it is a reference golden, \`npx mcp-golden record ${name}`;
}

/** Largest golden {@link readGolden} reads unless told otherwise: 256 MiB. */
export const MAX_GOLDEN_BYTES = 256 * 1024 * 1024;

/** Options of {@link readGolden}. */
export interface ReadGoldenOptions {
  /** Refuse files larger than this many bytes. @default MAX_GOLDEN_BYTES */
  readonly maxBytes?: number;
}

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/**
 * Reads and parses a golden as a stream of lines (a large file is never one string). A missing
 * file is `E_GOLDEN_MISSING`; bad content is `E_GOLDEN_PARSE` / `E_GOLDEN_VERSION`, each naming
 * the file, the line, the field and the fix; a file above `maxBytes` is refused with the limit.
 *
 * @example
 * const golden = await readGolden('goldens/progress-10x100.jsonl')
 */
export async function readGolden(path: string, options: ReadGoldenOptions = {}): Promise<Transcript> {
  const maxBytes = options.maxBytes ?? MAX_GOLDEN_BYTES;
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new GoldenError(
        'E_GOLDEN_MISSING',
        `Golden "${path}" does not exist. Record it with \`${regenerateCommand(path)}\` (or run the test locally, outside CI, to write it).`,
      );
    }
    throw new GoldenError('E_GOLDEN_PARSE', `Failed to read golden "${path}": ${(error as Error).message}.`, {
      cause: error,
    });
  }
  if (size > maxBytes) {
    throw new GoldenError(
      'E_GOLDEN_PARSE',
      `Failed to read golden "${path}": it is ${mib(size)}, above the limit of ${mib(maxBytes)}. Record a smaller scenario (fewer or shorter blocks), or raise the limit with readGolden(path, { maxBytes }).`,
    );
  }
  const reader = new TranscriptReader(withRecordCommand({ source: path }));
  let pending: Buffer[] = [];
  let firstLine: string | undefined;
  let lines = 0;
  try {
    for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
      let start = 0;
      for (let newline = chunk.indexOf(10); newline >= 0; newline = chunk.indexOf(10, start)) {
        const line =
          pending.length > 0
            ? Buffer.concat([...pending, chunk.subarray(start, newline)])
            : chunk.subarray(start, newline);
        pending = [];
        lines++;
        firstLine ??= line.toString('utf8');
        reader.bytes(line);
        start = newline + 1;
      }
      if (start < chunk.length) pending.push(chunk.subarray(start));
    }
  } catch (error) {
    if (error instanceof GoldenError) throw error;
    throw new GoldenError('E_GOLDEN_PARSE', `Failed to read golden "${path}": ${(error as Error).message}.`, {
      cause: error,
    });
  }
  if (pending.length > 0) reader.truncated(firstLine ?? Buffer.concat(pending).toString('utf8'), lines + 1);
  return reader.finish();
}

/**
 * Writes a golden atomically: the text goes to a temporary file beside the target, is flushed to
 * disk, then renamed over the target. A crash or a full disk never leaves half a golden; the old
 * file stays as it was.
 */
export async function writeGolden(path: string, transcript: Transcript): Promise<void> {
  await writeFileAtomic(path, serializeTranscript(transcript));
}

/** Writes `text` to `path` through a temporary file and a rename. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const temp = temporaryNameOf(path, process.pid, randomBytes(4).toString('hex'));
  try {
    await mkdir(dirname(path), { recursive: true });
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw new GoldenError(
      'E_GOLDEN_WRITE',
      `Failed to write golden "${path}": ${(error as Error).message}. The previous file, if any, is unchanged. Check the directory is writable and has space.`,
      { cause: error },
    );
  }
}
