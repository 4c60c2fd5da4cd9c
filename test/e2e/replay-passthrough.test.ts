import { type ChildProcess, spawn } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CLI, runCli } from '../support/cli.js';
import { runInProcess } from '../support/in-process-cli.js';
import { inspectorCli } from '../support/inspector-cli.js';
import { EVERYTHING, type RunningEverything, startEverythingHttp } from '../support/server-everything.js';
import { useTempDir } from '../support/temp-dir.js';

// `replay --unmatched passthrough` (vcrpy's new_episodes): a call no golden matches is answered by
// server-everything, streamed through (progress included), and recorded into the goldens directory
// as a new golden per client session; that golden then replays the call with no live server at all.

const temp = useTempDir('mcp-golden-passthrough-');
let http: RunningEverything | undefined;
beforeAll(async () => {
  http = await startEverythingHttp();
}, 30_000);
afterAll(async () => {
  await http?.stop();
});

const LONG = { name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } };

/** Starts `mcp-golden ...args`, resolving with its URL (first stdout line) and its stderr so far. */
function startReplay(args: readonly string[]): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve({ child, url: out.split('\n')[0] as string, stderr: () => err });
    });
    child.once('exit', (code) => reject(new Error(`replay exited with ${code}: ${err}`)));
  });
}

async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGINT');
  return exited;
}

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'passthrough-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

test('an unrecorded call is answered live with its progress, recorded at session end, and replays without the live server', async () => {
  const goldens = join(temp.dir, 'goldens');
  const scenarios = join(temp.dir, 'scenarios.json');
  await writeFile(scenarios, JSON.stringify([{ name: 'echo', tool: 'echo', arguments: { message: 'recorded' } }]));
  // Spawned, not in process: with both records of this file in process, the stdio test's replayed
  // golden lost its progress ([] for [1, 2, 3]) in a whole-file run (alone it passed); not yet explained.
  const recorded = await runCli([
    'record',
    '--target',
    (http as RunningEverything).url,
    '--era',
    'legacy',
    '--scenarios',
    scenarios,
    '--out',
    goldens,
  ]);
  expect(recorded.code, recorded.stderr).toBe(0);
  const before = await readdir(goldens);
  expect(before).toHaveLength(1);

  const replay = await startReplay([
    'replay',
    goldens,
    '--port',
    '0',
    '--pace',
    'instant',
    '--unmatched',
    'passthrough',
    '--target',
    (http as RunningEverything).url,
  ]);
  let code: number | null;
  try {
    const { client, transport } = await connect(replay.url);
    expect(await client.callTool({ name: 'echo', arguments: { message: 'recorded' } })).toEqual({
      content: [{ type: 'text', text: 'Echo: recorded' }],
    });
    const progress: number[] = [];
    const live = await client.callTool(LONG, undefined, { onprogress: (p) => progress.push(p.progress) });
    expect(JSON.stringify(live)).toContain('Long running operation completed');
    expect(progress).toEqual([1, 2, 3]);
    expect(await client.callTool({ name: 'echo', arguments: { message: 'live' } })).toEqual({
      content: [{ type: 'text', text: 'Echo: live' }],
    });
    // The client ends its session: the live session it stood on is written as a new golden then.
    await transport.terminateSession();
    await client.close();
    const until = Date.now() + 10_000;
    // Goldens only: an atomic write's temporary file (`.<name>.<pid>.<hex>.tmp`) is there while it is written.
    const goldenFiles = async (): Promise<string[]> =>
      (await readdir(goldens)).filter((f) => f.endsWith('.jsonl') && !f.startsWith('.'));
    while ((await goldenFiles()).length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(await goldenFiles(), replay.stderr()).toHaveLength(2);
  } finally {
    code = await stop(replay.child);
  }
  expect(code, replay.stderr()).toBe(0);
  const report = replay.stderr();
  expect(report).toContain('7 requests received, 0 unmatched, 2 passed through to');
  expect(report).toContain('passed through: tools/call trigger-long-running-operation (HTTP 200)');
  expect(report).toContain('passed through: tools/call echo (HTTP 200)');
  expect(report).toMatch(/recorded: .*passthrough-.*\.jsonl/);
  const added = (await readdir(goldens)).filter((f) => !before.includes(f));
  expect(added).toHaveLength(1);
  const text = await readFile(join(goldens, added[0] as string), 'utf8');
  expect(text).toContain('Echo: live');
  expect(text).not.toContain('Echo: recorded');

  // No live server from here on: the default --unmatched error answers both calls from the goldens.
  await http?.stop();
  http = undefined;
  const again = await startReplay(['replay', goldens, '--port', '0', '--pace', 'instant']);
  try {
    const { client } = await connect(again.url);
    const progress: number[] = [];
    const live = await client.callTool(LONG, undefined, { onprogress: (p) => progress.push(p.progress) });
    expect(JSON.stringify(live)).toContain('Long running operation completed');
    expect(progress).toEqual([1, 2, 3]);
    expect(await client.callTool({ name: 'echo', arguments: { message: 'live' } })).toEqual({
      content: [{ type: 'text', text: 'Echo: live' }],
    });
    await expect(client.callTool({ name: 'echo', arguments: { message: 'never recorded' } })).rejects.toThrow(
      /no recorded request matches|-32601|-32602/,
    );
    await client.close();
  } finally {
    await stop(again.child);
  }
  expect(again.stderr()).toContain('1 unmatched');
}, 120_000);

test("the Inspector's unrecorded call over HTTP is answered live, written on SIGINT, and replays to the same call", async () => {
  const goldens = join(temp.dir, 'inspector-goldens');
  // The first test stops its live server to show the replay needs none: this one starts another.
  http ??= await startEverythingHttp();
  const live = http;
  // A golden of the same server: the Inspector 2.12.0 checks the tool in tools/list (answered from the
  // golden) before it calls it, so the recorded list must be server-everything's.
  const scenarios = join(temp.dir, 'inspector-scenarios.json');
  await writeFile(scenarios, JSON.stringify([{ name: 'sum', tool: 'get-sum', arguments: { a: 1, b: 2 } }]));
  const recorded = await runCli([
    'record',
    '--target',
    live.url,
    '--era',
    'legacy',
    '--scenarios',
    scenarios,
    '--out',
    goldens,
  ]);
  expect(recorded.code, recorded.stderr).toBe(0);
  const echo = ['--tool-name', 'echo', '--tool-arg', 'message=from the inspector'];
  const replay = await startReplay([
    'replay',
    goldens,
    '--port',
    '0',
    '--unmatched',
    'passthrough',
    '--target',
    live.url,
  ]);
  let code: number | null;
  try {
    const first = await inspectorCli([replay.url], 'tools/call', echo);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json).toEqual({ content: [{ type: 'text', text: 'Echo: from the inspector' }] });
  } finally {
    code = await stop(replay.child);
  }
  expect(code, replay.stderr()).toBe(0);
  expect(replay.stderr()).toContain('passed through: tools/call echo (HTTP 200)');
  expect(await readdir(goldens)).toHaveLength(2);

  const again = await startReplay(['replay', goldens, '--port', '0', '--pace', 'instant']);
  try {
    const second = await inspectorCli([again.url], 'tools/call', echo);
    expect(second.code, second.stderr).toBe(0);
    expect(second.json).toEqual({ content: [{ type: 'text', text: 'Echo: from the inspector' }] });
  } finally {
    await stop(again.child);
  }
}, 90_000);

test('over stdio, --target-stdio: a miss is answered by the live command with its progress, recorded when stdin closes, and replays', async () => {
  const goldens = join(temp.dir, 'stdio-goldens');
  const scenarios = join(temp.dir, 'stdio-scenarios.json');
  const server = `${process.execPath} ${EVERYTHING} stdio`;
  await writeFile(scenarios, JSON.stringify([{ name: 'echo', tool: 'echo', arguments: { message: 'recorded' } }]));
  const recorded = await runCli(['record', '--stdio', server, '--scenarios', scenarios, '--out', goldens]);
  expect(recorded.code, recorded.stderr).toBe(0);
  const replayArgs = [CLI, 'replay', '--stdio', '--pace', 'instant', goldens];
  const passthrough = [...replayArgs, '--unmatched', 'passthrough', '--target-stdio', server];

  // The SDK client: the live call's progress arrives through the replay.
  const client = new Client({ name: 'passthrough-stdio', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: passthrough, stderr: 'pipe' });
  let stderr = '';
  (transport.stderr as NodeJS.ReadableStream | null)?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  await client.connect(transport);
  const progress: number[] = [];
  const live = await client.callTool(LONG, undefined, { onprogress: (p) => progress.push(p.progress) });
  expect(JSON.stringify(live)).toContain('Long running operation completed');
  expect(progress).toEqual([1, 2, 3]);
  await client.close();
  const until = Date.now() + 10_000;
  while ((await readdir(goldens)).length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  expect(await readdir(goldens), stderr).toHaveLength(2);
  expect(stderr).toContain('passed through: tools/call trigger-long-running-operation (answered)');

  // The Inspector: an unrecorded echo answered live, then from its new golden with no live server.
  const echo = ['--tool-name', 'echo', '--tool-arg', 'message=live over stdio'];
  const first = await inspectorCli([process.execPath, ...passthrough], 'tools/call', echo);
  expect(first.code, first.stderr).toBe(0);
  expect(first.json).toEqual({ content: [{ type: 'text', text: 'Echo: live over stdio' }] });
  while ((await readdir(goldens)).length < 3 && Date.now() < until + 10_000)
    await new Promise((r) => setTimeout(r, 50));
  expect(await readdir(goldens)).toHaveLength(3);
  const again = await inspectorCli([process.execPath, ...replayArgs], 'tools/call', echo);
  expect(again.code, again.stderr).toBe(0);
  expect(again.json).toEqual({ content: [{ type: 'text', text: 'Echo: live over stdio' }] });
  // The SDK client replays at 5x the recorded gaps (0.5 s): a client starved on a loaded machine reads progress
  // written at instant pace in one read with the result, and the SDK then drops the progress (client-faults.md
  // row 23, TS SDK #2580; CI at 489a6ec got [] here).
  const progressAgain: number[] = [];
  const replayed = new Client({ name: 'replayed-stdio', version: '1.0.0' });
  const paced = [CLI, 'replay', '--stdio', '--pace', '5', goldens];
  await replayed.connect(new StdioClientTransport({ command: process.execPath, args: paced, stderr: 'ignore' }));
  const result = await replayed.callTool(LONG, undefined, { onprogress: (p) => progressAgain.push(p.progress) });
  expect(JSON.stringify(result)).toContain('Long running operation completed');
  expect(progressAgain).toEqual([1, 2, 3]);
  await replayed.close();
}, 120_000);

test('replay --stdio with pass-through writes its session on SIGINT, the client still connected', async () => {
  const goldens = join(temp.dir, 'signal-goldens');
  await mkdir(goldens);
  await copyFile('goldens/chatty-stdio.jsonl', join(goldens, 'chatty-stdio.jsonl'));
  const before = await readdir(goldens);
  const server = `${process.execPath} ${EVERYTHING} stdio`;
  const child = spawn(
    process.execPath,
    [CLI, 'replay', '--stdio', '--pace', 'instant', goldens, '--unmatched', 'passthrough', '--target-stdio', server],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const init = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };
  child.stdin.write(
    `${JSON.stringify(init)}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
  );
  const call = {
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name: 'echo', arguments: { message: 'signal' } },
  };
  child.stdin.write(`${JSON.stringify(call)}\n`);
  try {
    const until = Date.now() + 15_000;
    while (!stdout.includes('Echo: signal') && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(stdout, stderr).toContain('Echo: signal');
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(0);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  expect(stderr).toContain('passed through: tools/call echo (answered)');
  const added = (await readdir(goldens)).filter((f) => !before.includes(f));
  expect(added).toHaveLength(1);
  expect(await readFile(join(goldens, added[0] as string), 'utf8')).toContain('Echo: signal');
}, 60_000);

test('a live server that cannot answer gets the client a clear error, over HTTP and over stdio, and nothing is written', async () => {
  const goldens = join(temp.dir, 'unreachable-goldens');
  await mkdir(goldens);
  await copyFile('goldens/chatty-stdio.jsonl', join(goldens, 'chatty-stdio.jsonl'));
  const before = (await readdir(goldens)).length;
  const replay = await startReplay([
    'replay',
    goldens,
    '--port',
    '0',
    '--unmatched',
    'passthrough',
    '--target',
    'http://127.0.0.1:1/mcp',
  ]);
  try {
    const { client } = await connect(replay.url);
    await expect(client.callTool({ name: 'echo', arguments: { message: 'nobody' } })).rejects.toThrow(
      /--unmatched passthrough could not reach http:\/\/127\.0\.0\.1:1\/mcp/,
    );
    await client.close();
  } finally {
    await stop(replay.child);
  }
  expect(replay.stderr()).toContain('passed through: tools/call echo (failed:');

  const missing = ['--unmatched', 'passthrough', '--target-stdio', 'mcp-golden-no-such-command'];
  const client = new Client({ name: 'passthrough-missing', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'replay', '--stdio', '--pace', 'instant', goldens, ...missing],
      stderr: 'ignore',
    }),
  );
  await expect(client.callTool({ name: 'echo', arguments: { message: 'nobody' } })).rejects.toThrow(
    /the live server `mcp-golden-no-such-command` exited before it answered/,
  );
  await client.close();
  expect((await readdir(goldens)).length).toBe(before);
}, 60_000);

test('--unmatched passthrough needs the live server of its transport; --target alone is a usage error', async () => {
  const golden = 'goldens/chatty.jsonl';
  const missing = await runInProcess(['replay', golden, '--unmatched', 'passthrough']);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain('Missing --target URL');
  const stdio = await runInProcess([
    'replay',
    golden,
    '--stdio',
    '--unmatched',
    'passthrough',
    '--target',
    'http://127.0.0.1:1/mcp',
  ]);
  expect(stdio.code).toBe(2);
  expect(stdio.stderr).toContain("give --target-stdio '<command line>', not --target URL");
  const http = await runInProcess(['replay', golden, '--unmatched', 'passthrough', '--target-stdio', 'node x.js']);
  expect(http.code).toBe(2);
  expect(http.stderr).toContain('give --target URL, or replay with --stdio');
  const alone = await runInProcess(['replay', golden, '--target', 'http://127.0.0.1:1/mcp']);
  expect(alone.code).toBe(2);
  expect(alone.stderr).toContain('--target, --target-stdio and --out go with --unmatched passthrough');
});

test("a pass-through session whose client leaves without DELETE (the SDK v1 client's close) is written after --session-idle-ms, before any signal", async () => {
  const goldens = join(temp.dir, 'idle-goldens');
  const scenarios = join(temp.dir, 'idle-scenarios.json');
  await writeFile(scenarios, JSON.stringify([{ name: 'echo', tool: 'echo', arguments: { message: 'recorded' } }]));
  const recorded = await runCli([
    'record',
    '--target',
    (http as RunningEverything).url,
    '--era',
    'legacy',
    '--scenarios',
    scenarios,
    '--out',
    goldens,
  ]);
  expect(recorded.code, recorded.stderr).toBe(0);
  const replay = await startReplay([
    'replay',
    goldens,
    '--port',
    '0',
    '--pace',
    'instant',
    '--unmatched',
    'passthrough',
    '--target',
    (http as RunningEverything).url,
    '--session-idle-ms',
    '300',
  ]);
  const goldenFiles = async (): Promise<string[]> =>
    (await readdir(goldens)).filter((f) => f.endsWith('.jsonl') && !f.startsWith('.'));
  try {
    const { client } = await connect(replay.url);
    expect(await client.callTool({ name: 'echo', arguments: { message: 'idle' } })).toEqual({
      content: [{ type: 'text', text: 'Echo: idle' }],
    });
    await client.close();
    // The replay process keeps its connections to the live server open: only the quiet spell ends the session.
    const until = Date.now() + 3000;
    while ((await goldenFiles()).length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const added = (await goldenFiles()).filter((f) => f !== 'echo.jsonl');
    expect(added, replay.stderr()).toHaveLength(1);
    expect(await readFile(join(goldens, added[0] as string), 'utf8')).toContain('Echo: idle');
  } finally {
    await stop(replay.child);
  }
}, 60_000);
