import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { startStdioPassthrough } from '../../../src/replay/passthrough/index.js';
import { runInProcess } from '../../support/in-process-cli.js';
import { startStdioReplayClient } from '../../support/stdio-replay-client.js';

// `replay --stdio --unmatched passthrough` in the 2025 era relays both ways over stdio: a live
// SDK v2 2.4.0 server's own requests during a passed-through call (`elicitation/create`, then
// `roots/list`) reach the client, the client's answers reach the live server, and the golden holds
// them, so `verify` answers the server's questions the same way.

const SERVER = fileURLToPath(new URL('../../support/eliciting-stdio-server.mjs', import.meta.url));

test("over stdio, a live server's elicitation/create and roots/list during a passed-through call are answered by the client", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-golden-stdio-requests-'));
  const live = { command: process.execPath, args: [SERVER], label: 'eliciting-stdio-server' };
  const passthrough = startStdioPassthrough(live, join(dir, 'goldens'), new PassThrough());
  // The client answers the live server's own requests, as an SDK client with these capabilities does.
  const client = await startStdioReplayClient(
    'goldens/chatty-stdio.jsonl',
    { fallback: passthrough.fallback },
    (message, send) => {
      if (message.method === 'elicitation/create') {
        send({ jsonrpc: '2.0', id: message.id, result: { action: 'accept', content: { ok: true } } });
      }
      if (message.method === 'roots/list') {
        send({ jsonrpc: '2.0', id: message.id, result: { roots: [{ uri: 'file:///work', name: 'work' }] } });
      }
    },
  );
  const { send, replay } = client;
  const messages = () => client.lines.map((l) => l.message);
  try {
    await client.initialize('stdio-requests', { elicitation: {}, roots: {} });
    send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'ask', arguments: {} } });
    await client.until(() => messages().some((l) => l.id === 5 && l.result !== undefined), 10_000);
    expect(
      messages()
        .filter((l) => l.method !== undefined)
        .map((l) => l.method),
    ).toEqual(['elicitation/create', 'roots/list']);
    expect(messages().find((l) => l.id === 5)?.result).toMatchObject({
      content: [{ type: 'text', text: 'answered: {"ok":true} roots: file:///work' }],
    });
    // The call no golden records went to the live server, and so did the client's two answers.
    expect(replay.report().unmatched.map((r) => r.method)).toEqual(['tools/call']);
    const asked = messages()
      .filter((l) => l.method !== undefined)
      .map((l) => l.id);
    const relayed = replay.report().requests.filter((r) => r.remark === 'passed through to the live server');
    expect(relayed.map((r) => r.id)).toEqual(asked);
  } finally {
    await client.close();
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
