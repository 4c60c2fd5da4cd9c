import { afterAll, beforeAll, expect, test } from 'vitest';
import { recordCall } from '../../../src/record/record-call.js';
import { createReplayServer, type ReplayServer } from '../../../src/replay/replay-server.js';
import { type ReferenceServer, startReferenceServer } from '../../../src/server/http-server.js';
import { envelope, modernHeaders } from '../../support/request-battery.js';
import { type SdkV2Server, startSdkV2Server } from '../../support/sdk-v2-server.js';

// `subscriptions/listen` (2026-07-28) as the SDK v2 2.4.0 server answers it, message for message: the
// acknowledgement first, tagged with the subscription id, naming what the server honors; the result that
// ends the subscription when nothing is honored; an open stream when something is. The status and code
// of these requests are in the battery; this file holds the messages themselves.

let sdk: SdkV2Server;
let serve: ReferenceServer;
let replayOfServe: ReplayServer;
let replayOfSdk: ReplayServer;

beforeAll(async () => {
  [sdk, serve] = await Promise.all([startSdkV2Server({ legacy: 'stateless' }), startReferenceServer()]);
  const call = { tool: 'progress', arguments: { steps: 1, step_ms: 1 }, era: 'modern' as const };
  const [fromServe, fromSdk] = await Promise.all([
    recordCall(serve.url, { name: 'listen-serve', ...call }),
    recordCall(sdk.url, { name: 'listen-sdk', ...call }),
  ]);
  replayOfServe = await createReplayServer([fromServe], { pace: 'instant', onUnmatchedRequest: () => undefined });
  replayOfSdk = await createReplayServer([fromSdk], { pace: 'instant', onUnmatchedRequest: () => undefined });
}, 60_000);
afterAll(async () => {
  await Promise.all([sdk.close(), serve.close(), replayOfServe.close(), replayOfSdk.close()]);
});

const listen = (url: string, notifications: unknown, signal?: AbortSignal) =>
  fetch(url, {
    method: 'POST',
    headers: modernHeaders('subscriptions/listen'),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'sub-7',
      method: 'subscriptions/listen',
      params: { notifications, _meta: envelope() },
    }),
    ...(signal && { signal }),
  });

/** The JSON-RPC messages of an SSE body, with the server's name and version left out (they differ by server). */
function messages(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => {
      const message = JSON.parse(line.slice(5)) as { result?: { _meta?: Record<string, unknown> } };
      if (message.result?._meta) delete message.result._meta['io.modelcontextprotocol/serverInfo'];
      return message;
    });
}

test('nothing honored: serve and a replay of serve send what the SDK v2 server sends, and end the stream', async () => {
  const filter = { promptsListChanged: true, resourceSubscriptions: ['mcp-golden://audit-log'] };
  const answers = await Promise.all([sdk.url, serve.url, replayOfServe.url].map((url) => listen(url, filter)));
  const [expected, ...got] = await Promise.all(
    answers.map(async (r) => ({
      status: r.status,
      type: r.headers.get('content-type'),
      messages: messages(await r.text()),
    })),
  );
  expect(expected?.messages).toEqual([
    {
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: {}, _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-7' } },
    },
    {
      jsonrpc: '2.0',
      id: 'sub-7',
      result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-7' } },
    },
  ]);
  expect(got).toEqual([expected, expected]);
});

test('a replay of a server that advertised tools.listChanged honors it and holds the stream open, as that server does', async () => {
  const first = async (url: string) => {
    const abort = new AbortController();
    const response = await listen(url, { toolsListChanged: true, promptsListChanged: true }, abort.signal);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    // Still open: a second read waits (nothing more comes within 200 ms).
    const more = await Promise.race([reader.read().then(() => 'more'), new Promise((r) => setTimeout(r, 200, 'open'))]);
    abort.abort();
    return { status: response.status, messages: messages(text), more };
  };
  const expected = await first(sdk.url);
  expect(expected.messages).toEqual([
    {
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: {
        notifications: { toolsListChanged: true },
        _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-7' },
      },
    },
  ]);
  expect(await first(replayOfSdk.url)).toEqual(expected);
});

test('a filter that is not one: 200 with -32602 from each', async () => {
  const codes = await Promise.all(
    [sdk.url, serve.url, replayOfServe.url].map(async (url) => {
      const response = await listen(url, { toolsListChanged: 'yes' });
      return `${response.status} ${((await response.json()) as { error?: { code?: number } }).error?.code}`;
    }),
  );
  expect(codes).toEqual(['200 -32602', '200 -32602', '200 -32602']);
});
