import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordCall } from '../../../src/record/record-call.js';
import { createReplayServer, type ReplayServer } from '../../../src/replay/replay-server.js';
import type { Transcript } from '../../../src/transcript/frame.js';
import { startSdkV2Server } from '../../support/sdk-v2-server.js';

// SEP-2243: a tool argument marked x-mcp-header travels in Mcp-Param-{Name} too; the replay refuses
// a header that disagrees with the body as a 2026-07-28 server does (400, -32020).

const NAME = 'Zoë 東京';
let golden: Transcript;
let replay: ReplayServer;

beforeAll(async () => {
  const live = await startSdkV2Server({ legacy: 'reject' });
  try {
    golden = await recordCall(live.url, { tool: 'greet', arguments: { name: NAME }, era: 'modern' });
  } finally {
    await live.close();
  }
  replay = await createReplayServer([golden], { pace: 'instant' });
});
afterAll(async () => {
  await replay.close();
});

const base64 = (text: string): string => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

async function callGreet(paramHeader: string | undefined): Promise<{ status: number; body: string }> {
  const response = await fetch(replay.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'greet',
      ...(paramHeader !== undefined && { 'mcp-param-name': paramHeader }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name: 'greet',
        arguments: { name: NAME },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  return { status: response.status, body: await response.text() };
}

describe('Mcp-Param-* headers in the modern replay', () => {
  test('the recording carries the base64 form for the non-ASCII argument', () => {
    const head = golden.frames.find((f) => f.channel === 'http' && f.headers?.['mcp-name'] === 'greet');
    expect(head?.headers?.['mcp-param-name']).toBe(base64(NAME));
  });

  test('the SDK v2 client pinned to 2026-07-28 sends the header itself and gets the recorded answer', async () => {
    const client = new Client({ name: 'v2', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(replay.url)));
    try {
      const result = await client.callTool({ name: 'greet', arguments: { name: NAME } });
      expect(result.content).toEqual([{ type: 'text', text: `hello, ${NAME}` }]);
    } finally {
      await client.close();
    }
  });

  test('a header that agrees (base64 form) is answered', async () => {
    const { status, body } = await callGreet(base64(NAME));
    expect(status).toBe(200);
    expect(body).toContain(`hello, ${NAME}`);
  });

  test('a header that disagrees, is missing, or is bad base64 is 400 with -32020 naming it', async () => {
    for (const [header, words] of [
      [base64('Zoe'), 'the mcp-param-name header decodes to "Zoe", the body says name="Zoë 東京"'],
      ['Zoe', 'the mcp-param-name header decodes to "Zoe"'],
      [undefined, 'the mcp-param-name header is missing'],
      ['=?base64?not base64!?=', 'invalid base64 sentinel value'],
    ] as const) {
      const { status, body } = await callGreet(header);
      expect(status, String(header)).toBe(400);
      const answer = JSON.parse(body);
      expect(answer.id).toBe(7);
      expect(answer.error.code).toBe(-32020);
      expect(answer.error.message).toContain(words);
    }
  });
});
