import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runInProcess } from '../support/in-process-cli.js';

const CHATTY = fileURLToPath(new URL('../../goldens/chatty.jsonl', import.meta.url));
let dir: string;
let lines: string[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-damaged-'));
  lines = (await readFile(CHATTY, 'utf8')).split('\n').slice(0, -1);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes `content` as a golden and runs `mcp-golden inspect` on it. */
async function inspect(name: string, content: string | Buffer): Promise<{ code: number | null; stderr: string }> {
  const path = join(dir, name);
  await writeFile(path, content);
  const { code, stderr } = await runInProcess(['inspect', path]);
  return { code, stderr };
}

const withFormat = (format: string): string =>
  [lines[0]?.replace('"mcp-golden/1"', JSON.stringify(format)), ...lines.slice(1), ''].join('\n');

const indexOfRaw = (): number => lines.findIndex((l, i) => i > 0 && l.includes('"raw":"'));

describe('damaged goldens: each gets its message, never a crash', () => {
  test('a rawBase64 value that is not base64 names file, line and field', async () => {
    const at = indexOfRaw();
    const edited = [...lines];
    edited[at] = (edited[at] as string).replace(/"raw":"(?:[^"\\]|\\.)*"/, '"rawBase64":"Y8M*!"');
    const { code, stderr } = await inspect('chatty-base64.jsonl', `${edited.join('\n')}\n`);
    expect(code).toBe(1);
    expect(stderr).toContain('chatty-base64.jsonl');
    expect(stderr).toContain(`line ${at + 1} field "rawBase64" is not valid base64 (character "*" at offset 3)`);
    expect(stderr).toContain('npx mcp-golden record chatty');
  });

  test('invalid UTF-8 inside a raw field is an error, not U+FFFD', async () => {
    const at = indexOfRaw();
    const text = `${lines.join('\n')}\n`;
    const bytes = Buffer.from(text, 'utf8');
    const lineStart = Buffer.byteLength(`${lines.slice(0, at).join('\n')}\n`);
    const rawAt = bytes.indexOf('"raw":"', lineStart) + 7;
    bytes[rawAt] = 0xff;
    const { code, stderr } = await inspect('chatty-utf8.jsonl', bytes);
    expect(code).toBe(1);
    expect(stderr).toContain(`line ${at + 1} is not valid UTF-8 (in field "raw")`);
  });

  test.each([
    [
      'mcp-golden/0',
      'older than this mcp-golden reads (mcp-golden/1). Regenerate it with `npx mcp-golden record chatty`',
    ],
    ['mcp-golden/7', 'newer than this mcp-golden reads (mcp-golden/1). Upgrade mcp-golden'],
    ['golden-v2', 'unknown format "golden-v2"; this mcp-golden reads mcp-golden/1'],
  ])('format %s says so, with the fix', async (format, message) => {
    const { code, stderr } = await inspect(`chatty-${format.replace('/', '-')}.jsonl`, withFormat(format));
    expect(code).toBe(1);
    expect(stderr).toContain(message);
    if (format !== 'mcp-golden/7') expect(stderr).not.toContain('newer');
  });

  test('a 600 MB golden is refused with the limit, not "Invalid string length"', async () => {
    const path = join(dir, 'huge.jsonl');
    await writeFile(path, `${lines[0]}\n`);
    execFileSync('truncate', ['-s', '600M', path]); // sparse: no 600 MB written
    const { code, stderr } = await runInProcess(['inspect', path]);
    expect(code).toBe(1);
    expect(stderr).toContain('it is 600.0 MiB, above the limit of 256.0 MiB');
    expect(stderr).not.toContain('Invalid string length');
  });

  test('inspect reports the temporary file of an interrupted write', async () => {
    const sub = await mkdtemp(join(dir, 'tmp-'));
    await writeFile(join(sub, 'chatty.jsonl'), `${lines.join('\n')}\n`);
    // The pid of a process that has exited: a live one's write would still be under way, not left over.
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    await writeFile(join(sub, `.chatty.jsonl.${dead}.0badc0de.tmp`), lines[0] as string);
    const { code, stdout, stderr } = await runInProcess(['inspect', join(sub, 'chatty.jsonl')]);
    expect(code).toBe(0);
    expect(stdout).toContain('chatty.jsonl');
    expect(stderr).toContain(
      `interrupted write "${join(sub, `.chatty.jsonl.${dead}.0badc0de.tmp`)}": a write of "${join(sub, 'chatty.jsonl')}" by process ${dead} never finished`,
    );
  });
});
