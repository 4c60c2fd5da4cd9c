import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { isGoldenError } from '../errors.js';
import { GOLDEN_FORMAT, type Transcript } from '../transcript/frame.js';
import { readGolden, writeGolden } from './golden-file.js';

const transcript: Transcript = {
  header: { format: GOLDEN_FORMAT, protocolVersion: '2025-11-25', transport: 'http', target: 'x', recorder: 'r' },
  frames: [{ t: 1, dir: 'server->client', channel: 'sse', exchange: 1, raw: 'data: café\n\n' }],
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('golden files', () => {
  test('write then read gives the same transcript, and leaves no temporary file', async () => {
    const path = join(dir, 'nested', 'chatty.jsonl');
    await writeGolden(path, transcript);
    expect(await readGolden(path)).toEqual(transcript);
    expect(await readdir(join(dir, 'nested'))).toEqual(['chatty.jsonl']);
  });

  test('a missing golden says how to record it', async () => {
    const error = await readGolden(join(dir, 'progress-10x100.jsonl')).catch((e: unknown) => e);
    expect(isGoldenError(error, 'E_GOLDEN_MISSING')).toBe(true);
    const message = (error as Error).message;
    // A user's own server first (a bare scenario name only works for the reference goldens)...
    expect(message).toContain(
      `Record it with \`npx mcp-golden record --target <url> --scenarios <scenarios.json> --out ${dir}\``,
    );
    expect(message).toContain('a scenario named "progress-10x100" writes it');
    // ...and the reference golden's own command.
    expect(message).toContain('`npx mcp-golden record progress-10x100`');
  });

  test('a corrupt golden names the file and line', async () => {
    const path = join(dir, 'bad.jsonl');
    await writeFile(path, '{"format":"mcp-golden/1"\n');
    const error = await readGolden(path).catch((e: unknown) => e);
    expect((error as Error).message).toContain(`Failed to read golden "${path}": line 1 is not valid JSON`);
  });

  test('a write that fails at the last step leaves what was there and no temporary file', async () => {
    // The rename fails because the target is a non-empty directory: the write must be abandoned cleanly.
    const path = join(dir, 'target.jsonl');
    await mkdir(path);
    await writeFile(join(path, 'occupied'), 'previous content');
    const error = await writeGolden(path, transcript).catch((e: unknown) => e);
    expect(isGoldenError(error, 'E_GOLDEN_WRITE')).toBe(true);
    expect((error as Error).message).toMatch(
      /^Failed to write golden ".*target\.jsonl": .+\. The previous file, if any, is unchanged\./,
    );
    expect(await readFile(join(path, 'occupied'), 'utf8')).toBe('previous content');
    expect(await readdir(dir)).toEqual(['target.jsonl']);
  });
});
