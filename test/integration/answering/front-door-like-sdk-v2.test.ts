import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createReplayServer, type ReplayServer } from '../../../src/replay/replay-server.js';
import { type ReferenceServer, startReferenceServer } from '../../../src/server/http-server.js';
import { readGolden } from '../../../src/store/golden-file.js';
import { type Answer, type BatteryCase, send } from '../../support/request-battery.js';
import { type SdkV2Server, startSdkV2Server } from '../../support/sdk-v2-server.js';

// serve and replay share one front door (http/front-door.ts): the same request refused before it
// is read gets the SDK v2 2.4.0 server's status and JSON-RPC code from both. The replay answered a
// body over the limit with -32600 before the door was one; the SDK v2 server, and serve, with -32000.

const ACCEPT = 'application/json, text/event-stream';
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

let sdk: SdkV2Server;
let serve: ReferenceServer;
let replay: ReplayServer;

beforeAll(async () => {
  const golden = await readGolden(fileURLToPath(new URL('../../../goldens/chatty.jsonl', import.meta.url)));
  [sdk, serve, replay] = await Promise.all([
    startSdkV2Server({ legacy: 'stateless' }),
    startReferenceServer(),
    createReplayServer(golden, { pace: 'instant' }),
  ]);
});
afterAll(async () => {
  await Promise.all([sdk.close(), serve.close(), replay.close()]);
});

const post = (headers: Record<string, string>, body = LIST): BatteryCase => ({
  httpMethod: 'POST',
  headers,
  body,
  name: '',
});
const CASES: readonly BatteryCase[] = [
  {
    ...post({ accept: ACCEPT, 'content-type': 'application/json' }),
    name: 'a body over the 4 MiB limit',
    body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"${'x'.repeat(4 * 1024 * 1024)}"}}`,
  },
  { ...post({ accept: ACCEPT, 'content-type': 'text/plain' }), name: 'Content-Type text/plain' },
  {
    ...post({ accept: ACCEPT, 'content-type': 'text/plain' }),
    name: 'Content-Type text/plain with a body over the limit (refused on its head, the body unread)',
    body: `{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}`,
  },
  { ...post({ accept: ACCEPT }), name: 'no Content-Type' },
  { ...post({ accept: ACCEPT, 'content-type': 'application/json' }), httpMethod: 'PUT', name: 'a PUT' },
];

const shown = (answer: Answer): string => `${answer.status} ${answer.code ?? '-'}`;

describe('serve and replay refuse at the front door as the SDK v2 server does', () => {
  test.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, request) => {
    const [expected, fromServe, fromReplay] = (
      await Promise.all([sdk.url, serve.url, replay.url].map((url) => send(url, request)))
    ).map(shown);
    expect({ serve: fromServe, replay: fromReplay }).toEqual({ serve: expected, replay: expected });
  });
});

test('a foreign Origin is refused on its head, before a body over the limit is read: 403 from both, not 413', async () => {
  const request = {
    ...post({ accept: ACCEPT, 'content-type': 'application/json', origin: 'http://rebinding.example' }),
    body: `{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}`,
  };
  const answers = await Promise.all([serve.url, replay.url].map((url) => send(url, request)));
  expect(answers.map(shown)).toEqual(['403 -32000', '403 -32000']);
});
