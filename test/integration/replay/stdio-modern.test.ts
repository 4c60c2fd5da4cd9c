import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordCall } from '../../../src/record/record-call.js';
import { serveReplayStdio } from '../../../src/replay/stdio-replay.js';
import { writeGolden } from '../../../src/store/golden-file.js';
import type { Transcript } from '../../../src/transcript/frame.js';
import { CLI } from '../../support/cli.js';
import { startSdkV2Server } from '../../support/sdk-v2-server.js';

// The stdio replay serves modern (2026-07-28) goldens: requests carry the per-request envelope,
// with no initialize before them.

let dir: string;
let file: string;
let golden: Transcript;
beforeAll(async () => {
  const live = await startSdkV2Server({ legacy: 'reject' });
  try {
    golden = await recordCall(live.url, {
      name: 'modern-progress',
      tool: 'progress',
      arguments: { steps: 3, step_ms: 150 },
      progressToken: 'p',
      era: 'modern',
    });
  } finally {
    await live.close();
  }
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-stdio-modern-'));
  file = join(dir, 'modern-progress.jsonl');
  await writeGolden(file, golden);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('stdio replay of a modern golden', () => {
  test('the SDK v2 client pinned to 2026-07-28 over stdio gets the recorded progress and result', async () => {
    const client = new Client({ name: 'v2', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        // At the recorded pace the result follows the last progress by a step (150 ms): the SDK client
        // drops a progress that arrives in one read with the result, which an instant replay risks on
        // a loaded machine.
        args: [CLI, 'replay', '--stdio', '--pace', 'recorded', file],
        stderr: 'ignore',
      }),
    );
    try {
      const progress: number[] = [];
      const result = await client.callTool(
        { name: 'progress', arguments: { steps: 3, step_ms: 150 } },
        { onprogress: (p: { progress: number }) => progress.push(p.progress) },
      );
      expect(progress).toEqual([1, 2, 3]);
      expect(result.structuredContent).toEqual({ steps: 3, notified: 3, done: true });
    } finally {
      await client.close();
    }
  });

  test('lines with the envelope and no initialize: server/discover and tools/call answered as recorded, with resultType', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines: Record<string, unknown>[] = [];
    let text = '';
    stdout.setEncoding('utf8');
    stdout.on('data', (chunk: string) => {
      text += chunk;
      for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n')) {
        lines.push(JSON.parse(text.slice(0, at)));
        text = text.slice(at + 1);
      }
    });
    const replay = serveReplayStdio([golden], { stdin, stdout, pace: 'instant' });
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'd', method: 'server/discover', params: { _meta: META } })}\n`);
    stdin.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 'c',
        method: 'tools/call',
        params: { name: 'progress', arguments: { steps: 3, step_ms: 150 }, _meta: { ...META, progressToken: 'q' } },
      })}\n`,
    );
    stdin.end();
    await replay.closed;
    const discover = lines.find((l) => l.id === 'd') as { result: { supportedVersions: string[]; resultType: string } };
    expect(discover.result.supportedVersions).toContain('2026-07-28');
    expect(discover.result.resultType).toBe('complete');
    const progress = lines.filter((l) => l.method === 'notifications/progress') as {
      params: { progressToken: unknown };
    }[];
    expect(progress.map((p) => p.params.progressToken)).toEqual(['q', 'q', 'q']);
    const call = lines.find((l) => l.id === 'c') as { result: { resultType: string } };
    expect(call.result.resultType).toBe('complete');
    expect(replay.report().unmatched).toEqual([]);
  });
});
