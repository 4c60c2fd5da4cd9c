import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { createReplayServer } from '../../../src/replay/replay-server.js';
import { readGolden } from '../../../src/store/golden-file.js';

const golden = await readGolden(fileURLToPath(new URL('../../../goldens/progress-10x100.jsonl', import.meta.url)));
const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const INIT =
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';
const call = (id: number): string =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"progress","arguments":{"steps":10,"step_ms":100},"_meta":{"progressToken":${id}}}}`;
const cancel = (id: number): string =>
  `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${id},"reason":"test"}}`;

/** Reads a body to its end; 'open' when it has not ended within `ms`. */
async function endsWithin(body: ReadableStream<Uint8Array>, ms: number): Promise<'ended' | 'open'> {
  const reader = body.getReader();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'open'>((resolve) => {
    timer = setTimeout(() => resolve('open'), ms);
  });
  const read = (async (): Promise<'ended'> => {
    while (!(await reader.read()).done) {}
    return 'ended';
  })();
  const outcome = await Promise.race([read, timeout]);
  clearTimeout(timer);
  if (outcome === 'open') await reader.cancel();
  return outcome;
}

test('cancelled calls count against the 64-call cap of a session: the oldest is let go and its stream closed (issue 32)', async () => {
  const replay = await createReplayServer(golden);
  try {
    const init = await fetch(replay.url, { method: 'POST', headers: HEADERS, body: INIT });
    await init.text();
    const headers = { ...HEADERS, 'mcp-session-id': init.headers.get('mcp-session-id') as string };
    const post = (body: string) => fetch(replay.url, { method: 'POST', headers, body });
    const first = await post(call(1));
    await (await post(cancel(1))).text();
    // 70 more calls, each cancelled: the session may keep 64, so the first must go.
    for (let id = 2; id <= 71; id++) {
      const res = await post(call(id));
      await (await post(cancel(id))).text();
      await res.body?.cancel();
    }
    expect(await endsWithin(first.body as ReadableStream<Uint8Array>, 3000)).toBe('ended');
  } finally {
    await replay.close();
  }
});
