import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { readGolden } from '../store/golden-file.js';
import { HttpReplay } from './http-replay.js';
import { ReplayEngine } from './replay-engine.js';

const golden = await readGolden(fileURLToPath(new URL('../../goldens/progress-10x100.jsonl', import.meta.url)));
const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const INIT =
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';

test('every session id carries random bytes of its own, also past the block drawn at once for 256 sessions', async () => {
  const replay = new HttpReplay(new ReplayEngine([golden], { pace: 'instant' }));
  try {
    const ids = await Promise.all(
      Array.from(
        { length: 600 },
        () =>
          new Promise<string | undefined>((resolve) =>
            replay.handle(
              { httpMethod: 'POST', headers: HEADERS, body: INIT },
              {
                head: (_status, headers) => resolve(headers['mcp-session-id']),
                write: () => undefined,
                end: () => undefined,
                onClose: () => undefined,
              },
            ),
          ),
      ),
    );
    const secrets = ids.map((id) => /^replay-session-\d+-([0-9a-f]{24})$/.exec(id ?? '')?.[1]);
    expect(secrets.filter((s) => s === undefined)).toEqual([]);
    expect(new Set(secrets).size).toBe(600);
  } finally {
    replay.close();
  }
});
