import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { createReplayServer } from '../../../src/replay/replay-server.js';
import { readGolden } from '../../../src/store/golden-file.js';
import type { Frame, Transcript } from '../../../src/transcript/frame.js';

const golden = await readGolden(fileURLToPath(new URL('../../../goldens/progress-small.jsonl', import.meta.url)));

/** The golden with `from` replaced by `to` in the raw text of every server frame holding it. */
function edited(from: string, to: string): Transcript {
  let found = 0;
  const frames = golden.frames.map((f): Frame => {
    if (f.dir !== 'server->client' || f.raw === undefined || !f.raw.includes(from)) return f;
    found++;
    return { ...f, raw: f.raw.replace(from, to) };
  });
  expect(found).toBeGreaterThan(0);
  return { ...golden, frames };
}

const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

/** The `data` of every SSE event of a response, as text. */
const dataLines = (text: string): string[] =>
  text
    .split('\n')
    .filter((l) => l.startsWith('data: ') && l.length > 6)
    .map((l) => l.slice(6));

/** Opens a session on a replay of `recorded`, then POSTs `body` (text, sent as is) and returns the data lines. */
async function callWith(recorded: Transcript, body: string, version?: string): Promise<string[]> {
  const replay = await createReplayServer(recorded, { pace: 'instant' });
  try {
    const init = await fetch(replay.url, {
      method: 'POST',
      headers: HEADERS,
      body: '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
    });
    await init.text();
    const session = init.headers.get('mcp-session-id') as string;
    const headers = { ...HEADERS, 'mcp-session-id': session, ...(version && { 'mcp-protocol-version': version }) };
    const res = await fetch(replay.url, { method: 'POST', headers, body });
    const text = await res.text();
    return res.headers.get('content-type') === 'application/json' ? [text] : dataLines(text);
  } finally {
    await replay.close();
  }
}

const call = (id: string, token: string): string =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"progress","arguments":{"steps":1,"step_ms":1},"_meta":{"progressToken":${token}}}}`;

describe('the live id and token go into the replayed frames as the client wrote them (issue 32)', () => {
  test('a large id, a large token, an exponent and an escaped string come back byte for byte', async () => {
    const [progress, answer] = await callWith(golden, call('12345678901234567890', '9007199254740993'));
    expect(progress).toContain('"progressToken":9007199254740993,');
    expect(answer).toMatch(/"id":12345678901234567890\}$/);
    const [progress2, answer2] = await callWith(golden, call('1e3', '"a\\u0062c"'));
    expect(progress2).toContain('"progressToken":"a\\u0062c",');
    expect(answer2).toMatch(/"id":1e3\}$/);
  });

  test('the items of a 2025-03-26 batch are answered with their ids as written', async () => {
    const [answer] = await callWith(
      golden,
      '[ {"jsonrpc":"2.0","id":12345678901234567890,"method":"tools/list"} ,{"jsonrpc":"2.0","id":"a\\u0062c","method":"tools/list"}]',
      '2025-03-26',
    );
    expect(answer).toMatch(/^\[\{"result".*"id":12345678901234567890\},\{"result".*"id":"a\\u0062c"\}\]$/s);
  });

  test('only the notification’s own params.progressToken is stamped, not one inside a tool result', async () => {
    const recorded = edited('"structuredContent":{', '"structuredContent":{"progressToken":"some-other-job",');
    const [progress, answer] = await callWith(recorded, call('5', '"live-token"'));
    expect(progress).toContain('"progressToken":"live-token"');
    expect(answer).toContain('"structuredContent":{"progressToken":"some-other-job",');
    expect(answer).not.toContain('live-token');
  });

  test('a recorded token-echo bug stays a bug: the server’s 42 for "golden-progress-small" is replayed as 42', async () => {
    const recorded = edited('"progressToken":"golden-progress-small"', '"progressToken":42');
    for (const token of ['"golden-progress-small"', '"another"']) {
      const [progress] = await callWith(recorded, call('5', token));
      expect(progress).toContain('"progressToken":42,');
    }
    // The same golden without the bug maps the recorded token to the live one.
    const [faithful] = await callWith(golden, call('5', '"another"'));
    expect(faithful).toContain('"progressToken":"another",');
  });

  test('an object or array id in a recorded answer is replaced whole, so the answer stays valid JSON', async () => {
    for (const recordedId of ['{"x":1}', '[1,{"y":[2]}]']) {
      const recorded = edited('"jsonrpc":"2.0","id":1}', `"jsonrpc":"2.0","id":${recordedId}}`);
      const [, answer] = await callWith(recorded, call('7', '"t"'));
      expect(JSON.parse(answer as string)).toMatchObject({ id: 7, result: { structuredContent: { done: true } } });
    }
  });
});
