import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordCall } from '../../../src/record/record-call.js';
import { referenceStdioCommand } from '../../../src/server/reference-stdio-command.js';
import { writeGolden } from '../../../src/store/golden-file.js';
import { CLI } from '../../support/cli.js';
import { startSdkV2Server } from '../../support/sdk-v2-server.js';

// `replay --stdio` answers across eras as the HTTP replay does: a client of one era, where no golden
// of its era records the call, is answered from a golden of the other, re-framed (the clients start
// the replay as their stdio server, a process).

let dir: string;
let legacyGolden: string;
let modernGolden: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-stdio-cross-era-'));
  const scenario = { name: 'progress', tool: 'progress', arguments: { steps: 3, step_ms: 150 }, progressToken: 'p' };
  legacyGolden = join(dir, 'legacy-progress.jsonl');
  await writeGolden(legacyGolden, await recordCall(referenceStdioCommand(), { ...scenario, era: 'legacy' }));
  const live = await startSdkV2Server({ legacy: 'reject' });
  try {
    modernGolden = join(dir, 'modern-progress.jsonl');
    await writeGolden(modernGolden, await recordCall(live.url, { ...scenario, era: 'modern' }));
  } finally {
    await live.close();
  }
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// At the recorded pace the result follows the last progress by a step: the SDK clients drop a
// progress read together with the result.
const replay = (golden: string) => ({
  command: process.execPath,
  args: [CLI, 'replay', '--stdio', '--pace', 'recorded', golden],
  stderr: 'ignore' as const,
});

describe('replay --stdio across eras', () => {
  test('the SDK v2 client pinned to 2026-07-28 is answered from a 2025 golden: server/discover, progress, the result', async () => {
    const client = new ClientV2({ name: 'v2', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StdioV2(replay(legacyGolden)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const progress: number[] = [];
      const result = await client.callTool(
        { name: 'progress', arguments: { steps: 3, step_ms: 150 } },
        { onprogress: (p: { progress: number }) => progress.push(p.progress) },
      );
      expect(progress).toEqual([1, 2, 3]);
      expect(result.structuredContent).toEqual({ steps: 3, notified: true, done: true });
    } finally {
      await client.close();
    }
  });

  test('the SDK v1 client (the 2025 handshake, as the Inspector) is answered from a 2026-07-28 golden', async () => {
    const client = new ClientV1({ name: 'v1', version: '1' });
    await client.connect(new StdioV1(replay(modernGolden)));
    try {
      expect(client.getServerVersion()?.name).toBeTypeOf('string');
      const progress: number[] = [];
      const result = await client.callTool({ name: 'progress', arguments: { steps: 3, step_ms: 150 } }, undefined, {
        onprogress: (p) => progress.push(p.progress),
      });
      expect(progress).toEqual([1, 2, 3]);
      expect(result.structuredContent).toEqual({ steps: 3, notified: 3, done: true });
      expect(result).not.toHaveProperty('resultType');
    } finally {
      await client.close();
    }
  });
});
