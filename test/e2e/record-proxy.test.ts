import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { startCli } from '../support/cli.js';
import { runInProcess, startInProcess } from '../support/in-process-cli.js';
import { inspectorCli } from '../support/inspector-cli.js';
import { useEverythingHttp } from '../support/server-everything.js';

// `record --proxy` records what a real client does: the MCP Inspector 2.12.0 CLI through the proxy to
// server-everything, written as a golden within the session idle time of the Inspector's exit (it
// sends no DELETE; issue 44), replayed to the same Inspector call.

const suite = useEverythingHttp('mcp-golden-proxy-');

const ECHO = ['--tool-name', 'echo', '--tool-arg', 'message=proxied'];

/** The files in `dir` once there are any, polled until `ms` have passed (then none). */
async function filesWithin(dir: string, ms: number): Promise<string[]> {
  const until = Date.now() + ms;
  for (;;) {
    const files = (await readdir(dir).catch(() => [])).filter((f) => f.endsWith('.jsonl'));
    if (files.length > 0 || Date.now() > until) return files;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test("the Inspector 2.12.0 CLI's call through record --proxy is written within the idle time of its exit (no DELETE) and replays to the same call", async () => {
  const out = join(suite.dir, 'goldens');
  const proxy = await startCli(['record', '--proxy', '--target', suite.http.url, '--out', out]);
  const url = proxy.firstLine;
  let code: number | null;
  try {
    const live = await inspectorCli([url, '--header', 'Authorization: Bearer proxy-secret-token'], 'tools/call', ECHO);
    expect(live.code, live.stderr).toBe(0);
    expect(live.json).toEqual({ content: [{ type: 'text', text: 'Echo: proxied' }] });
    // Within the default --session-idle-ms (5000) of the Inspector's exit, before any signal.
    expect(await filesWithin(out, 5000)).toHaveLength(1);
  } finally {
    code = await proxy.interrupt('SIGINT');
  }
  const stderr = proxy.stderr();
  expect(code, stderr).toBe(0);
  const files = await readdir(out);
  expect(files).toHaveLength(1);
  expect(stderr).toContain('1 session written to');
  const golden = join(out, files[0] as string);
  const text = await readFile(golden, 'utf8');
  expect(text).not.toContain('proxy-secret-token');
  expect(text).toContain('"method\\":\\"tools/call\\"');

  const replay = await startInProcess(['replay', golden, '--port', '0', '--pace', 'instant']);
  try {
    const again = await inspectorCli([replay.firstLine], 'tools/call', ECHO);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json).toEqual({ content: [{ type: 'text', text: 'Echo: proxied' }] });
  } finally {
    await replay.stop();
  }
}, 90_000);

test('record --proxy refuses what it cannot do, with a usage error', async () => {
  const none = await runInProcess(['record', '--proxy']);
  expect(none.code).toBe(2);
  expect(none.stderr).toContain('Missing --target URL or --stdio CMD');
});
