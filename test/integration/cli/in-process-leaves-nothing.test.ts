import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { CLI } from '../../support/cli.js';
import { runInProcess, startInProcess } from '../../support/in-process-cli.js';
import { useTempDir } from '../../support/temp-dir.js';

const GOLDENS = fileURLToPath(new URL('../../../goldens/', import.meta.url));
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'exit'] as const;

const temp = useTempDir('mcp-golden-in-process-');

/** The process's signal listeners and its active handles (sockets, servers, child processes, timers), by kind. */
function processState(): { listeners: Record<string, number>; handles: Record<string, number> } {
  const listeners = Object.fromEntries(SIGNALS.map((s) => [s, process.listenerCount(s)]));
  const handles: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) {
    // Timers come and go with the test runner itself; what a command would leave is a socket, a
    // server or a child process.
    if (kind === 'Timeout' || kind === 'Immediate') continue;
    handles[kind] = (handles[kind] ?? 0) + 1;
  }
  return { listeners, handles };
}

async function settled(): Promise<ReturnType<typeof processState>> {
  // Closed sockets and exited children leave the active list on a later turn of the event loop.
  for (let i = 0; i < 50; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return processState();
}

/** One run of every command, in process, each to its end. */
async function runEveryCommand(round: number): Promise<void> {
  const golden = join(GOLDENS, 'chatty.jsonl');
  const out = join(temp.dir, `round-${round}`);
  const expectCode = (code: number | null, expected: number, what: string, stderr: string): void => {
    expect(code, `${what}: ${stderr}`).toBe(expected);
  };
  let r = await runInProcess(['--help']);
  expectCode(r.code, 0, '--help', r.stderr);
  r = await runInProcess(['lint', golden]);
  expectCode(r.code, 0, 'lint', r.stderr);
  r = await runInProcess(['inspect', golden]);
  expectCode(r.code, 0, 'inspect', r.stderr);
  r = await runInProcess(['diff', golden, golden]);
  expectCode(r.code, 0, 'diff', r.stderr);
  r = await runInProcess(['record', 'chatty', '--out', out]);
  expectCode(r.code, 0, 'record', r.stderr);
  r = await runInProcess(['verify', '--stdio', `${process.execPath} ${CLI} serve --stdio`, join(out, 'chatty.jsonl')]);
  expectCode(r.code, 0, 'verify', r.stderr);
  r = await runInProcess(['check', '--gateway-url', 'http://127.0.0.1:9/mcp', '--upstream-port', '0', '--only', 'x']);
  expect(r.code, r.stderr).not.toBe(0);
  for (const args of [
    ['serve', '--port', '0'],
    ['replay', golden, '--port', '0'],
  ]) {
    const started = await startInProcess(args);
    expect(started.firstLine).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const answer = await fetch(started.firstLine, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    await answer.text();
    expect(answer.status).toBe(200);
    expect(await started.stop()).toBe(0);
  }
}

test('commands run in process leave no signal listener, socket, server or child process behind', async () => {
  await runEveryCommand(0);
  const before = await settled();
  for (let round = 1; round <= 3; round++) await runEveryCommand(round);
  const after = await settled();
  expect(after.listeners).toEqual(before.listeners);
  expect(after.handles).toEqual(before.handles);
}, 120_000);
