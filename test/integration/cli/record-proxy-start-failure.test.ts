import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { expect, test } from 'vitest';
import { runInProcess } from '../../support/in-process-cli.js';
import { useTempDir } from '../../support/temp-dir.js';

// `record --proxy --stdio CMD` is the command a client starts: a CMD that cannot start is an
// `[mcp-golden]` error and exit 1 at once, not silence, exit 0 and a client left waiting.

const temp = useTempDir('mcp-golden-proxy-start-');

/** A client's stdin: one initialize, then held open as a client waiting for the answer does. */
function waitingClient(): PassThrough {
  const stdin = new PassThrough();
  stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} })}\n`);
  return stdin;
}

test.each([
  [
    'a missing command',
    'no-such-command-mcp-golden',
    'the command "no-such-command-mcp-golden" was not found (ENOENT)',
  ],
  ['a command that exits with an error before answering', `node ${join('missing', 'server.js')}`, 'exited with code 1'],
])('%s: exit 1 with an [mcp-golden] error, nothing written', async (_, command, said) => {
  const out = join(temp.dir, command.replace(/\W+/g, '-'));
  const started = Date.now();
  const stdin = waitingClient();
  const result = await runInProcess(['record', '--proxy', '--stdio', command, '--out', out], {
    stdin,
    timeoutMs: 20_000,
  });
  stdin.destroy();
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr).toMatch(/^\[mcp-golden\] record --proxy could not start the stdio server "/);
  expect(result.stderr).toContain(said);
  expect(result.stdout).toBe('');
  // Not the client's own timeout: at once.
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(await readdir(out).catch(() => [])).toEqual([]);
});

test.each([
  [
    'with a code',
    "process.stderr.write('listen EADDRINUSE: port taken\\n'); process.exit(3);",
    'exited with code 3',
    'listen EADDRINUSE: port taken',
  ],
  [
    'by a signal',
    "process.stderr.write('about to die\\n'); process.kill(process.pid, 'SIGKILL');",
    'was killed by SIGKILL',
    'about to die',
  ],
])(
  'a server that exits %s before the client sends anything: exit 1, an [mcp-golden] error naming its exit and stderr',
  async (_, source, how, said) => {
    const script = join(temp.dir, `dies-${how.replace(/\W+/g, '-')}.cjs`);
    await writeFile(script, source);
    const out = join(temp.dir, `early-${how.replace(/\W+/g, '-')}`);
    // A client that has not written yet: its stdin open and empty.
    const stdin = new PassThrough();
    const result = await runInProcess(['record', '--proxy', '--stdio', `node ${script}`, '--out', out], {
      stdin,
      timeoutMs: 20_000,
    });
    stdin.destroy();
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/^\[mcp-golden\] record --proxy could not start the stdio server "/);
    expect(result.stderr).toContain(`it ${how} before the client sent anything; its stderr ended with: ${said}`);
    expect(result.stderr).not.toContain('sessions written');
    expect(result.stdout).toBe('');
    expect(await readdir(out).catch(() => [])).toEqual([]);
  },
);
