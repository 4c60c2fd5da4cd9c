import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runInProcess as runCli } from '../../test/support/in-process-cli.js';
import { closeNow, listenLoopback } from '../http/listen-loopback.js';

const GOLDEN = fileURLToPath(new URL('../../goldens/chatty.jsonl', import.meta.url));
const taken = createServer();
let port: number;

beforeAll(async () => {
  port = await listenLoopback(taken);
});
afterAll(async () => {
  await closeNow(taken);
});

test.each([
  ['serve', () => ['serve', '--port', String(port)], undefined],
  ['replay', () => ['replay', '--port', String(port), GOLDEN], '--port'],
  [
    'check',
    () => ['check', '--gateway-url', 'http://127.0.0.1:9/mcp', '--upstream-port', String(port), '--only', 'token'],
    '--upstream-port',
  ],
])(
  '%s on a taken port prints one [mcp-golden] line naming the port and the fix, no stack trace',
  async (_, argv, option) => {
    const result = await runCli(argv());
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(`^\\[mcp-golden\\] Cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use`),
    );
    if (option) expect(result.stderr).toContain(`Pick another with ${option} N, or ${option} 0 for a free one`);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(/\n\s+at |unexpected error/);
  },
);
