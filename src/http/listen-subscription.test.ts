import { expect, test } from 'vitest';
import { answerListen, honoredFilter, listenEvent, SUBSCRIPTION_ID_META_KEY } from './listen-subscription.js';

// The honored subset and the messages as the SDK v2 2.4.0 server's listenRouter gives them (its
// honoredSubset and stream); test/integration/answering/listen-like-sdk-v2.test.ts compares them on the wire.

test('a flag is honored only where its capability says listChanged: true; resource subscriptions need subscribe', () => {
  const all = {
    toolsListChanged: true,
    promptsListChanged: true,
    resourcesListChanged: true,
    resourceSubscriptions: ['a://1', 'a://2'],
  };
  expect(honoredFilter(all, { tools: {}, resources: {} })).toEqual({});
  expect(honoredFilter(all, { tools: { listChanged: true }, prompts: { listChanged: false } })).toEqual({
    toolsListChanged: true,
  });
  expect(honoredFilter(all, { resources: { subscribe: true, listChanged: true } })).toEqual({
    resourcesListChanged: true,
    resourceSubscriptions: ['a://1', 'a://2'],
  });
  expect(
    honoredFilter({ toolsListChanged: false, resourceSubscriptions: [] }, { tools: { listChanged: true } }),
  ).toEqual({});
});

test('nothing honored: the tagged acknowledgement, then the result that ends the subscription', () => {
  const answer = answerListen(
    7,
    { notifications: { toolsListChanged: true } },
    { tools: {} },
    { name: 's', version: '1' },
  );
  expect(answer).toEqual({
    kind: 'stream',
    holdOpen: false,
    messages: [
      {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: {}, _meta: { [SUBSCRIPTION_ID_META_KEY]: 7 } },
      },
      {
        jsonrpc: '2.0',
        id: 7,
        result: {
          resultType: 'complete',
          _meta: { [SUBSCRIPTION_ID_META_KEY]: 7, 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } },
        },
      },
    ],
  });
});

test('something honored: the acknowledgement alone, and the stream held open', () => {
  const answer = answerListen(
    's-1',
    { notifications: { toolsListChanged: true } },
    { tools: { listChanged: true } },
    undefined,
  );
  expect(answer).toMatchObject({ kind: 'stream', holdOpen: true });
  expect(answer.kind === 'stream' && answer.messages.length).toBe(1);
});

test.each([
  ['no params', undefined],
  ['no notifications', {}],
  ['notifications an array', { notifications: [] }],
  ['a flag not a boolean', { notifications: { promptsListChanged: 1 } }],
  ['resourceSubscriptions not strings', { notifications: { resourceSubscriptions: [1] } }],
])('%s: -32602', (_name, params) => {
  expect(answerListen(1, params, {}, undefined)).toMatchObject({ kind: 'refused', code: -32602 });
});

test('an event as the SDK frames it', () => {
  expect(listenEvent({ a: 1 })).toBe('event: message\ndata: {"a":1}\n\n');
});
