import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport as SdkV2StdioTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { expect, test } from 'vitest';
import { serveReplayStdio } from '../../../src/replay/stdio-replay.js';
import { serveReferenceStdio } from '../../../src/server/stdio-server.js';
import { readGolden } from '../../../src/store/golden-file.js';

// The one stdio router (http/stdio-side.ts) under its two peers, where they differ on purpose:
// `serve --stdio` reads lines as the SDK v2 2.4.0 `serveStdio` does, the replay (a test double)
// names what is wrong with a line.

const GOLDENS = fileURLToPath(new URL('../../../goldens', import.meta.url));
const INITIALIZE =
  '{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';
const BAD_LINES = ['not json', '[{"jsonrpc":"2.0","id":"b","method":"ping"}]', '{"id":"o"}', '42'];
const LAST = '{"jsonrpc":"2.0","id":"last","method":"tools/list","params":{}}';

/** Every line written for `lines`, once the answer to the last one came (or 2 s passed). */
async function linesFor(
  open: (stdin: PassThrough, stdout: PassThrough) => Promise<() => unknown>,
  lines: readonly string[],
): Promise<{ id?: unknown; error?: { code: number } }[]> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let text = '';
  const last = new Promise<void>((resolve) => {
    stdout.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('"id":"last"')) resolve();
    });
    setTimeout(resolve, 2000);
  });
  const close = await open(stdin, stdout);
  stdin.write(`${lines.join('\n')}\n`);
  await last;
  await close();
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { id?: unknown; error?: { code: number } });
}

const sdkV2 = async (stdin: PassThrough, stdout: PassThrough) => {
  const handle = serveStdio(() => new McpServer({ name: 'reference', version: '1.0.0' }), {
    transport: new SdkV2StdioTransport(stdin, stdout),
  });
  return () => handle.close();
};

test('serve --stdio drops a line that is no JSON-RPC message, as the SDK v2 serveStdio does, and answers the next', async () => {
  const lines = [INITIALIZE, ...BAD_LINES, LAST];
  const ours = await linesFor(async (stdin, stdout) => {
    const served = await serveReferenceStdio({ stdin, stdout });
    return () => served.close();
  }, lines);
  const reference = await linesFor(sdkV2, lines);
  const ids = (out: { id?: unknown }[]) => out.map((m) => String(m.id)).sort();
  expect(ids(reference)).toEqual(['i', 'last']);
  expect(ids(ours)).toEqual(ids(reference));
});

test('replay --stdio names what is wrong with each such line (-32700, -32600), and answers the next', async () => {
  const golden = await readGolden(join(GOLDENS, 'chatty-stdio.jsonl'));
  const out = await linesFor(
    async (stdin, stdout) => {
      const replay = serveReplayStdio([golden], { stdin, stdout, pace: 'instant' });
      return () => replay.close();
    },
    [INITIALIZE, ...BAD_LINES, LAST],
  );
  const errors = out.filter((m) => m.id === null).map((m) => m.error?.code);
  expect(errors).toEqual([-32700, -32600, -32600, -32600]);
  expect(out.at(-1)?.id).toBe('last');
});

test('serve --stdio ends quietly when it can no longer write (the client gone), as the SDK v2 transport closes', async () => {
  const stdin = new PassThrough();
  const stdout = new Writable({
    write: (_chunk, _encoding, done) => done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })),
  });
  const served = await serveReferenceStdio({ stdin, stdout });
  stdin.write(`${INITIALIZE}\n`);
  // Unhandled, the stream's error would fail the test; unnoticed, `closed` would not resolve.
  await expect(
    Promise.race([served.closed.then(() => 'closed'), new Promise((r) => setTimeout(() => r('open'), 2000))]),
  ).resolves.toBe('closed');
});
