import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { readGolden } from '../store/golden-file.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { chooseExchange, explainUnmatched, type MatchMode } from './matching.js';
import { buildReplayPlan, type ReplayExchange } from './replay-plan.js';

const GOLDENS = fileURLToPath(new URL('../../goldens', import.meta.url));
const files = (await readdir(GOLDENS)).filter((f) => f.endsWith('.jsonl')).sort();
const plan = buildReplayPlan(await Promise.all(files.map((f) => readGolden(join(GOLDENS, f)))));

/** A request with its progress token set (`token`) or taken out (`undefined`). */
function withToken(message: JsonRpcMessage, token: unknown): JsonRpcMessage {
  const params = { ...(message.params as Record<string, unknown> | undefined) };
  const { progressToken: _, ...meta } = (params._meta ?? {}) as Record<string, unknown>;
  params._meta = token === undefined ? meta : { ...meta, progressToken: token };
  return { ...message, params };
}

/** Every request of the committed goldens, with and without a token, and `initialize` asking several versions. */
const requests: JsonRpcMessage[] = plan.exchanges.flatMap((e) => {
  const message = e.message;
  if (message === undefined || !('id' in message)) return [];
  if (message.method === 'initialize') {
    return ['2025-11-25', '2025-06-18', '2024-11-05', '2099-01-01', 7].map((protocolVersion) => ({
      ...message,
      params: { ...(message.params as Record<string, unknown>), protocolVersion },
    }));
  }
  return [message, withToken(message, 'live'), withToken(message, undefined)];
});

type Ask = readonly [JsonRpcMessage, 'http' | 'stdio', MatchMode];
const asks: Ask[] = requests.flatMap((message) =>
  (['http', 'stdio'] as const).flatMap((transport) =>
    (['ignore-token', 'strict'] as const).map((match) => [message, transport, match] as const),
  ),
);

describe('chooseExchange', () => {
  test('asked again and again on one plan (its choices kept), chooses what a first look at the plan chooses', () => {
    // A copy of the list is a plan never asked before: nothing is known of it yet.
    const fresh = (ask: Ask): ReplayExchange | undefined => chooseExchange([...plan.exchanges], 'POST', ...ask);
    const kept = (ask: Ask): ReplayExchange | undefined => chooseExchange(plan.exchanges, 'POST', ...ask);
    const want = asks.map(fresh);
    // Twice, the second time in reverse: a choice made for one kind of request never answers another.
    expect(asks.map(kept)).toEqual(want);
    expect([...asks].reverse().map(kept)).toEqual([...want].reverse());
    // The goldens hold requests whose choice turns on each fact the kept choices are told apart by.
    const differs = (a: (ask: Ask) => Ask, method?: string): boolean =>
      asks.some((ask) => (method === undefined || ask[0].method === method) && fresh(ask) !== fresh(a(ask)));
    expect(differs(([m, , match]) => [m, 'stdio', match], 'tools/call')).toBe(true);
    expect(differs(([m, , match]) => [m, 'stdio', match], 'initialize')).toBe(true);
    expect(differs(([m, t]) => [m, t, 'strict'])).toBe(true);
    expect(differs(([m, t, match]) => [withToken(m, undefined), t, match], 'tools/call')).toBe(true);
    const initialize = requests.find((m) => m.method === 'initialize') as JsonRpcMessage;
    expect(chooseExchange(plan.exchanges, 'POST', initialize, 'http')).toBeDefined();
  });
});

const named = async (name: string) => ({
  file: `${name}.jsonl`,
  golden: await readGolden(join(GOLDENS, `${name}.jsonl`)),
});
// chatty first: on equal counts of differences, the first recording read would win.
const { exchanges: twoGoldens } = buildReplayPlan([await named('chatty'), await named('progress-10x100')]);

const call = (name: string, args?: object): JsonRpcMessage => ({
  jsonrpc: '2.0',
  id: 9,
  method: 'tools/call',
  params: { name, ...(args && { arguments: args }) },
});

describe('the nearest recorded request named for an unmatched one', () => {
  test('is a call of the same tool with other arguments before another tool, even with fewer differences', () => {
    // Without a token, progress-10x100 differs in steps and the token (2), chatty in name and arguments (2).
    const error = explainUnmatched(twoGoldens, call('progress', { steps: 3, step_ms: 100 }));
    expect(error.message).toContain('Closest recorded (progress-10x100.jsonl #');
    expect(error.data.differences).toContain('params.arguments.steps: recorded 10, got 3');
    expect(error.code).toBe(-32602);
  });

  test('says what a recording holds where matching read its empty arguments as none', () => {
    const error = explainUnmatched(twoGoldens, call('chatty', { loud: true }));
    expect(error.message).toContain('Closest recorded (chatty.jsonl #');
    expect(error.data.differences).toEqual(['params.arguments: recorded {}, got {"loud":true}']);
  });
});
