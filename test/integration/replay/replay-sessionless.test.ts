import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { ResponseSink } from '../../../src/replay/http-exchange.js';
import { HttpReplay } from '../../../src/replay/http-replay.js';
import { ReplayEngine } from '../../../src/replay/replay-engine.js';
import { createReplayServer } from '../../../src/replay/replay-server.js';
import { readGolden } from '../../../src/store/golden-file.js';
import type { Frame, Transcript } from '../../../src/transcript/frame.js';

const recorded = await readGolden(fileURLToPath(new URL('../../../goldens/progress-10x100.jsonl', import.meta.url)));

/** The golden as a stateless server would have recorded it: no session ids anywhere. */
const golden: Transcript = {
  ...recorded,
  frames: recorded.frames.map((f): Frame => {
    if (!f.headers || !('mcp-session-id' in f.headers)) return f;
    const { 'mcp-session-id': _, ...headers } = f.headers;
    return { ...f, headers };
  }),
};

const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const INIT =
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';
const call = (id: number, token: string): string =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"progress","arguments":{"steps":10,"step_ms":100},"_meta":{"progressToken":"${token}"}}}`;

/** A response as the adapter writes it, kept in memory. */
function memorySink(): ResponseSink & { text: () => string; ended: Promise<void> } {
  const parts: string[] = [];
  let resolve: () => void = () => undefined;
  const ended = new Promise<void>((r) => {
    resolve = r;
  });
  return {
    head: () => undefined,
    write: (bytes) => parts.push(typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString()),
    end: resolve,
    onClose: () => undefined,
    text: () => parts.join(''),
    ended,
  };
}

const within = <T>(promise: Promise<T>, ms: number): Promise<T | 'timed out'> =>
  Promise.race([promise, new Promise<'timed out'>((r) => setTimeout(() => r('timed out'), ms).unref())]);

const progressCount = (text: string): number => text.split('"notifications/progress"').length - 1;

describe('sessionless goldens (issue 32)', () => {
  test('10,001 initializes keep no session each and do not stop a call in flight', async () => {
    const replay = new HttpReplay(new ReplayEngine([golden]));
    try {
      const running = memorySink();
      replay.handle({ httpMethod: 'POST', headers: HEADERS, body: call(1, 'a') }, running);
      for (let n = 0; n < 10_001; n++) {
        replay.handle({ httpMethod: 'POST', headers: HEADERS, body: INIT }, memorySink());
      }
      expect(await within(running.ended, 10_000)).toBeUndefined();
      expect(progressCount(running.text())).toBe(10);
      expect(running.text()).toContain('"done":true');
    } finally {
      replay.close();
    }
  });

  test('two clients both running id 1: a cancel of id 1 stops neither, and both calls end', async () => {
    const replay = await createReplayServer(golden);
    try {
      const post = (body: string) => fetch(replay.url, { method: 'POST', headers: HEADERS, body });
      const a = await post(call(1, 'client-a'));
      const b = await post(call(1, 'client-b'));
      await (await post('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}')).text();
      const [textA, textB] = await Promise.all([within(a.text(), 10_000), within(b.text(), 10_000)]);
      for (const [text, token] of [
        [textA, 'client-a'],
        [textB, 'client-b'],
      ] as const) {
        expect(progressCount(text)).toBe(10);
        expect(text.split(`"progressToken":"${token}"`)).toHaveLength(11);
        expect(text).toContain('"done":true');
      }
      expect(replay.report().requests.filter((r) => r.method === 'notifications/cancelled')).toHaveLength(1);
    } finally {
      await replay.close();
    }
  });
});
