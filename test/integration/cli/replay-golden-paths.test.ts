import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { beforeAll, describe, expect, test } from 'vitest';
import { runInProcess, startInProcess } from '../../support/in-process-cli.js';
import { useTempDir } from '../../support/temp-dir.js';

// `replay DIR` reads the goldens of DIR's subfolders too, as `verify` and `lint` do (a client guide's
// `--out goldens/modern` was left out of `replay goldens/`), and a missing golden is a usage error.
const GOLDENS = fileURLToPath(new URL('../../../goldens', import.meta.url));
const temp = useTempDir('mcp-golden-replay-paths-');

describe('replay golden paths', () => {
  beforeAll(async () => {
    await mkdir(join(temp.dir, 'goldens', 'deeper'), { recursive: true });
    await copyFile(join(GOLDENS, 'chatty.jsonl'), join(temp.dir, 'goldens', 'chatty.jsonl'));
    await copyFile(
      join(GOLDENS, 'progress-10x100.jsonl'),
      join(temp.dir, 'goldens', 'deeper', 'progress-10x100.jsonl'),
    );
  });

  test('a folder is read with its subfolders: the SDK v1 client gets both goldens’ answers', async () => {
    const replay = await startInProcess(['replay', 'goldens', '--port', '0', '--pace', 'instant'], { cwd: temp.dir });
    const client = new Client({ name: 'paths', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(replay.firstLine)));
      const chatty = await client.callTool({ name: 'chatty', arguments: {} });
      expect(chatty.content).toHaveLength(4);
      let progress = 0;
      const steps = await client.callTool({ name: 'progress', arguments: { steps: 10, step_ms: 100 } }, undefined, {
        onprogress: () => progress++,
      });
      expect(steps.structuredContent).toEqual({ steps: 10, notified: true, done: true });
    } finally {
      await client.close();
      expect(await replay.stop()).toBe(0);
    }
  });

  test('a missing golden is a usage error (exit 2) naming the .jsonl file beside a .json path', async () => {
    const typo = await runInProcess(['replay', 'goldens/chatty.json', '--port', '0'], { cwd: temp.dir });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('[mcp-golden] No golden at "goldens/chatty.json": no such file or directory.');
    expect(typo.stderr).toContain('Did you mean "goldens/chatty.jsonl"?');
    const none = await runInProcess(['replay', 'golden/', '--port', '0'], { cwd: temp.dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('[mcp-golden] No golden at "golden/"');
    expect(none.stderr).not.toContain('Did you mean');
  });
});
