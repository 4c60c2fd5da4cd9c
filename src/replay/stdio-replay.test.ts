import { spawn } from 'node:child_process';
import { once } from 'node:events';
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

test('a client that closes its end of stdout mid-call ends the replay quietly, with no EPIPE stack trace', async () => {
  const child = spawn(process.execPath, [CLI, 'replay', '--stdio', join(GOLDENS, 'progress-10x100.jsonl')], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  const exited = once(child, 'exit');
  child.stdin.write(
    '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n' +
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"progress","arguments":{"steps":10,"step_ms":100},"_meta":{"progressToken":1}}}\n',
  );
  await once(child.stdout, 'data');
  // The client stops reading while progress is still due: the replay's next writes meet EPIPE.
  child.stdout.destroy();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  child.stdin.end();
  const [code] = await exited;
  expect(stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
  expect(code).toBe(0);
}, 30_000);
