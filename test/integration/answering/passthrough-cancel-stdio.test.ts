import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { expect, test } from 'vitest';
import { startStdioPassthrough } from '../../../src/replay/passthrough/index.js';
import { serveReplayStdio } from '../../../src/replay/stdio-replay.js';
import { referenceStdioCommand } from '../../../src/server/reference-stdio-command.js';
import { readGolden } from '../../../src/store/golden-file.js';

// The stdio pass-through (`replay --stdio --unmatched passthrough --target-stdio`, 2025 era): the
// client's notifications/cancelled for a passed-through call reaches the live `serve --stdio`, which
// stops (no progress more than 300 ms after the cancel, no result); the golden records the cancel.

test('over stdio, a cancelled passed-through call stops at the live server, and the golden records the cancel', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-golden-stdio-cancel-'));
  const audit = join(dir, 'audit.json');
  const reference = referenceStdioCommand();
  const passthrough = startStdioPassthrough(
    { ...reference, args: [...reference.args, '--audit-file', audit] },
    join(dir, 'goldens'),
    new PassThrough(),
  );
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: { at: number; message: { id?: unknown; method?: string } }[] = [];
  let buffered = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      lines.push({ at: Date.now(), message: JSON.parse(buffered.slice(0, end)) });
      buffered = buffered.slice(end + 1);
    }
  });
  const replay = serveReplayStdio([await readGolden('goldens/chatty-stdio.jsonl')], {
    stdin,
    stdout,
    pace: 'instant',
    fallback: passthrough.fallback,
  });
  const send = (message: unknown): boolean => stdin.write(`${JSON.stringify(message)}\n`);
  const until = async (done: () => boolean): Promise<void> => {
    for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  };
  try {
    send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'stdio-cancel', version: '1' } },
    });
    await until(() => lines.some((l) => l.message.id === 0));
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'progress', arguments: { steps: 40, step_ms: 50 }, _meta: { progressToken: 'c-1' } },
    });
    const progress = () => lines.filter((l) => l.message.method === 'notifications/progress');
    await until(() => progress().length >= 3);
    const cancelAt = Date.now();
    send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'enough' } });
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(progress().filter((l) => l.at > cancelAt + 300)).toEqual([]);
    expect(lines.filter((l) => l.message.id === 7)).toEqual([]);
    expect(replay.report().requests).toContainEqual(
      expect.objectContaining({ method: 'notifications/cancelled', remark: 'passed through to the live server' }),
    );
  } finally {
    stdin.end();
    await replay.closed;
  }
  const written = passthrough.files;
  expect(written).toHaveLength(1);
  expect(await readFile(written[0] as string, 'utf8')).toContain('notifications/cancelled');
  // The audit file: one line per row update, `{pid, entry}`; the last one of the call says how it ended.
  const rows = (await readFile(audit, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { entry: { tool: string; cancelled: boolean; done: boolean } }).entry)
    .filter((row) => row.tool === 'progress');
  expect(rows.at(-1)).toMatchObject({ cancelled: true, done: false });
  await rm(dir, { recursive: true, force: true });
}, 60_000);
