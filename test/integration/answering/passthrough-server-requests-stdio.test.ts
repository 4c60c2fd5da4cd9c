import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { startStdioPassthrough } from '../../../src/replay/passthrough/index.js';
import { serveReplayStdio } from '../../../src/replay/stdio-replay.js';
import { readGolden } from '../../../src/store/golden-file.js';
import { runInProcess } from '../../support/in-process-cli.js';

// `replay --stdio --unmatched passthrough` in the 2025 era relays both ways over stdio: a live
// SDK v2 2.4.0 server's own requests during a passed-through call (`elicitation/create`, then
// `roots/list`) reach the client, the client's answers reach the live server, and the golden holds
// them, so `verify` answers the server's questions the same way.

const SERVER = fileURLToPath(new URL('../../support/eliciting-stdio-server.mjs', import.meta.url));

type Line = { id?: unknown; method?: string; params?: { message?: string }; result?: unknown };

test("over stdio, a live server's elicitation/create and roots/list during a passed-through call are answered by the client", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-golden-stdio-requests-'));
  const live = { command: process.execPath, args: [SERVER], label: 'eliciting-stdio-server' };
  const passthrough = startStdioPassthrough(live, join(dir, 'goldens'), new PassThrough());
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: Line[] = [];
  let buffered = '';
  const send = (message: unknown): boolean => stdin.write(`${JSON.stringify(message)}\n`);
  stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const message = JSON.parse(buffered.slice(0, end)) as Line;
      buffered = buffered.slice(end + 1);
      lines.push(message);
      // The client answers the live server's own requests, as an SDK client with these capabilities does.
      if (message.method === 'elicitation/create') {
        send({ jsonrpc: '2.0', id: message.id, result: { action: 'accept', content: { ok: true } } });
      }
      if (message.method === 'roots/list') {
        send({ jsonrpc: '2.0', id: message.id, result: { roots: [{ uri: 'file:///work', name: 'work' }] } });
      }
    }
  });
  const replay = serveReplayStdio([await readGolden('goldens/chatty-stdio.jsonl')], {
    stdin,
    stdout,
    pace: 'instant',
    fallback: passthrough.fallback,
  });
  const until = async (done: () => boolean): Promise<void> => {
    for (let i = 0; i < 400 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  };
  try {
    send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: {}, roots: {} },
        clientInfo: { name: 'stdio-requests', version: '1' },
      },
    });
    await until(() => lines.some((l) => l.id === 0));
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'ask', arguments: {} } });
    await until(() => lines.some((l) => l.id === 5 && l.result !== undefined));
    expect(lines.filter((l) => l.method !== undefined).map((l) => l.method)).toEqual([
      'elicitation/create',
      'roots/list',
    ]);
    expect(lines.find((l) => l.id === 5)?.result).toMatchObject({
      content: [{ type: 'text', text: 'answered: {"ok":true} roots: file:///work' }],
    });
    // The call no golden records went to the live server, and so did the client's two answers.
    expect(replay.report().unmatched.map((r) => r.method)).toEqual(['tools/call']);
    const asked = lines.filter((l) => l.method !== undefined).map((l) => l.id);
    const relayed = replay.report().requests.filter((r) => r.remark === 'passed through to the live server');
    expect(relayed.map((r) => r.id)).toEqual(asked);
  } finally {
    stdin.end();
    await replay.closed;
  }
  const written = passthrough.files;
  expect(written).toHaveLength(1);
  const golden = await readFile(written[0] as string, 'utf8');
  expect(golden).toContain('elicitation/create');
  expect(golden).toContain('roots/list');
  expect(golden).toContain('file:///work');
  // verify answers the live server's questions from the golden and gets the same result.
  const verify = await runInProcess(['verify', '--stdio', `${process.execPath} ${SERVER}`, written[0] as string]);
  expect(verify.code, verify.stdout + verify.stderr).toBe(0);
  await rm(dir, { recursive: true, force: true });
}, 90_000);
