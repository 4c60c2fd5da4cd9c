import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { runInProcess as runCli } from '../../test/support/in-process-cli.js';

const GOLDENS = fileURLToPath(new URL('../../goldens', import.meta.url));

test('mcp-golden replay says at start when its goldens come from different servers (issue 32)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-golden-mix-'));
  try {
    const chatty = await readFile(join(GOLDENS, 'chatty.jsonl'), 'utf8');
    expect(chatty).toContain('mcp-golden-reference');
    await writeFile(join(dir, 'other.jsonl'), chatty.replaceAll('mcp-golden-reference', 'other-server'));
    const mixed = await runCli(['replay', '--stdio', join(GOLDENS, 'chatty.jsonl'), join(dir, 'other.jsonl')]);
    expect(mixed.stderr).toContain(
      '[mcp-golden] The goldens of this replay come from 2 different servers: "mcp-golden-reference 0.1.0" (chatty.jsonl), "other-server 0.1.0" (other.jsonl).',
    );
    expect(mixed.stderr).toContain("Replay each server's goldens in its own replay");
    const same = await runCli([
      'replay',
      '--stdio',
      join(GOLDENS, 'chatty.jsonl'),
      join(GOLDENS, 'progress-small.jsonl'),
    ]);
    expect(same.stderr).not.toContain('different servers');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
