import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { GoldenError } from '../errors.js';
import type { Transcript } from '../transcript/frame.js';
import { parseTranscript } from '../transcript/parse.js';
import { serializeTranscript } from '../transcript/serialize.js';
import { temporaryNameOf } from './interrupted-writes.js';

/** File extension of goldens. */
export const GOLDEN_EXTENSION = '.jsonl';

/** The command that regenerates the golden at `path` (its scenario is its file name). */
export function regenerateCommand(path: string): string {
  return `npx mcp-golden record ${basename(path, GOLDEN_EXTENSION)}`;
}

/**
 * Reads and parses a golden. A missing file is `E_GOLDEN_MISSING`; bad content is
 * `E_GOLDEN_PARSE` / `E_GOLDEN_VERSION`, each naming the file, the line and the fix.
 *
 * @example
 * const golden = await readGolden('goldens/progress-10x100.jsonl')
 */
export async function readGolden(path: string): Promise<Transcript> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
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
  return parseTranscript(text, { source: path });
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
