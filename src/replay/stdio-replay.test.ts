import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect, test } from 'vitest';
import { CLI } from '../../test/support/cli.js';

const GOLDENS = fileURLToPath(new URL('../../goldens', import.meta.url));

test('an HTTP golden replayed over stdio writes each message on its own, so the SDK client sees every progress (issue 32)', async () => {
  // At instant pace every message of the call is due at once: written together, the client read
  // the result with the last notifications and dropped them (0 to 9 of 10 seen).
  const seen: number[] = [];
  for (let run = 0; run < 3; run++) {
    const client = new Client({ name: 'stdio-progress', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'replay', '--stdio', '--pace', 'instant', join(GOLDENS, 'progress-10x100.jsonl')],
        stderr: 'ignore',
      }),
    );
    try {
      let progress = 0;
      const result = await client.callTool({ name: 'progress', arguments: { steps: 10, step_ms: 100 } }, undefined, {
        onprogress: () => progress++,
      });
      expect(result.structuredContent).toEqual({ steps: 10, notified: true, done: true });
      seen.push(progress);
    } finally {
      await client.close();
    }
  }
  expect(seen).toEqual([10, 10, 10]);
});
