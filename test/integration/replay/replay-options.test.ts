import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { isGoldenError } from '../../../src/errors.js';
import type { Pace } from '../../../src/replay/pacing.js';
import { createReplayServer } from '../../../src/replay/replay-server.js';
import { serveReplayStdio } from '../../../src/replay/stdio-replay.js';
import { readGolden } from '../../../src/store/golden-file.js';

const golden = await readGolden(fileURLToPath(new URL('../../../goldens/chatty.jsonl', import.meta.url)));

const BAD: unknown[] = [
  { scale: Number.NaN },
  { scale: Number.POSITIVE_INFINITY },
  { scale: -1 },
  { scale: 0 },
  { scale: '2' },
  'fast',
];

describe('the pace option is checked where a replay is made, not only in the CLI (issue 32)', () => {
  test.each(BAD.map((pace) => [JSON.stringify(pace) ?? String(pace), pace]))(
    'createReplayServer refuses pace %s with a clear error',
    async (_, pace) => {
      const error = await createReplayServer(golden, { pace: pace as Pace }).catch((e: unknown) => e);
      expect(isGoldenError(error, 'E_USAGE')).toBe(true);
      expect((error as Error).message).toMatch(
        /^Invalid replay option pace: expected 'recorded', 'instant' or \{ scale: n \}/,
      );
    },
  );

  test('serveReplayStdio refuses a NaN scale; an instant replay in the same process still answers', async () => {
    const stdin = new PassThrough();
    expect(() => serveReplayStdio([golden], { pace: { scale: Number.NaN }, stdin, stdout: new PassThrough() })).toThrow(
      /Invalid replay option pace/,
    );
    const replay = await createReplayServer(golden, { pace: 'instant' });
    try {
      const res = await fetch(replay.url, {
        method: 'POST',
        headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
      });
      expect(await res.text()).toContain('"protocolVersion"');
    } finally {
      await replay.close();
    }
  });
});
