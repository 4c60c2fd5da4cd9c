import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { expect, test } from 'vitest';
import { startStdioPassthrough } from '../../../src/replay/passthrough/index.js';
import { referenceStdioCommand } from '../../../src/server/reference-stdio-command.js';
import { startStdioReplayClient } from '../../support/stdio-replay-client.js';

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
  const client = await startStdioReplayClient('goldens/chatty-stdio.jsonl', { fallback: passthrough.fallback });
  const { lines, send, until, replay } = client;
  try {
    await client.initialize('stdio-cancel');
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
    await client.close();
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
