import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, test } from 'vitest';
import { CLI } from '../support/cli.js';
import { runInProcess, startInProcess } from '../support/in-process-cli.js';
import { inspectorCli } from '../support/inspector-cli.js';
import { EVERYTHING, useEverythingHttp } from '../support/server-everything.js';

// `record --proxy` writes each client session's golden when that session ends: over HTTP at the
// client's DELETE (before any signal), over stdio when the client closes the proxy's stdin (the
// proxy being the stdio command the client starts).

const suite = useEverythingHttp('mcp-golden-proxy-sessions-');

const ECHO = ['--tool-name', 'echo', '--tool-arg', 'message=through stdio'];

async function waitForFiles(path: string, count: number, ms: number): Promise<string[]> {
  const until = Date.now() + ms;
  for (;;) {
    // Goldens only: an atomic write's temporary file (`.<name>.<pid>.<hex>.tmp`) is there while it is written.
    const files = (await readdir(path).catch(() => [] as string[])).filter(
      (f) => f.endsWith('.jsonl') && !f.startsWith('.'),
    );
    if (files.length >= count || Date.now() > until) return files;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test("over HTTP, a session's golden is written at the client's DELETE, before any signal; the other on SIGINT", async () => {
  const out = join(suite.dir, 'http');
  const proxy = await startInProcess(['record', '--proxy', '--target', suite.http.url, '--out', out]);
  const url = proxy.firstLine;
  let code: number | null;
  try {
    const ended = new Client({ name: 'ends-its-session', version: '1.0.0' });
    const endedTransport = new StreamableHTTPClientTransport(new URL(url));
    await ended.connect(endedTransport);
    const kept = new Client({ name: 'keeps-its-session', version: '1.0.0' });
    await kept.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect(await ended.callTool({ name: 'echo', arguments: { message: 'ended' } })).toEqual({
      content: [{ type: 'text', text: 'Echo: ended' }],
    });
    expect(await kept.callTool({ name: 'echo', arguments: { message: 'kept' } })).toEqual({
      content: [{ type: 'text', text: 'Echo: kept' }],
    });
    await endedTransport.terminateSession();
    await ended.close();
    const written = await waitForFiles(out, 1, 10_000);
    expect(written, proxy.stderr()).toHaveLength(1);
    const text = await readFile(join(out, written[0] as string), 'utf8');
    expect(text).toContain('Echo: ended');
    expect(text).not.toContain('Echo: kept');
    expect(text).toContain('"method":"DELETE"');
    await kept.close();
  } finally {
    code = await proxy.stop();
  }
  const stderr = proxy.stderr();
  expect(code, stderr).toBe(0);
  const files = (await readdir(out)).sort();
  expect(files).toHaveLength(2);
  expect(stderr).toContain('2 sessions written to');
  const texts = await Promise.all(files.map((f) => readFile(join(out, f), 'utf8')));
  expect(texts.filter((t) => t.includes('Echo: kept'))).toHaveLength(1);
}, 90_000);

test('over stdio, the proxy is the command the Inspector starts; its golden is written when stdin closes and replays', async () => {
  const out = join(suite.dir, 'stdio');
  const server = `${process.execPath} ${EVERYTHING} stdio`;
  const live = await inspectorCli(
    [process.execPath, CLI, 'record', '--proxy', '--stdio', server, '--out', out],
    'tools/call',
    ECHO,
  );
  expect(live.code, live.stderr).toBe(0);
  expect(live.json).toEqual({ content: [{ type: 'text', text: 'Echo: through stdio' }] });
  // The Inspector is gone: the proxy wrote the golden as its stdin closed, without a signal.
  const files = await waitForFiles(out, 1, 10_000);
  expect(files).toHaveLength(1);
  const golden = join(out, files[0] as string);
  const text = await readFile(golden, 'utf8');
  expect(text).toContain('"transport":"stdio"');
  expect(text).toContain('"recordedBy":"recording proxy"');
  expect(text).toContain('\\"method\\":\\"tools/call\\"');

  const again = await inspectorCli(
    [process.execPath, CLI, 'replay', '--stdio', '--pace', 'instant', golden],
    'tools/call',
    ECHO,
  );
  expect(again.code, again.stderr).toBe(0);
  expect(again.json).toEqual({ content: [{ type: 'text', text: 'Echo: through stdio' }] });
}, 90_000);

test('record --proxy takes --target or --stdio, not both, and --stdio listens on no port', async () => {
  const both = await runInProcess(['record', '--proxy', '--stdio', 'node x.js', '--target', 'http://127.0.0.1:1/mcp']);
  expect(both.code).toBe(2);
  expect(both.stderr).toContain('--target URL or --stdio CMD, not both');
  const port = await runInProcess(['record', '--proxy', '--stdio', 'node x.js', '--port', '3000']);
  expect(port.code).toBe(2);
  expect(port.stderr).toContain('it listens on no --port');
});
