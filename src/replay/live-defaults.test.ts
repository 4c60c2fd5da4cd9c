import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { parseTranscript } from '../transcript/parse.js';
import { type ReplayAnswer, ReplayEngine } from './replay-engine.js';

const CHATTY = fileURLToPath(new URL('../../goldens/chatty.jsonl', import.meta.url));

/** The chatty golden with its server's recorded capabilities replaced (the reference server has tools and resources). */
async function goldenAdvertising(capabilities: string) {
  const text = await readFile(CHATTY, 'utf8');
  const recorded = '\\"capabilities\\":{\\"tools\\":{},\\"resources\\":{}}';
  expect(text).toContain(recorded);
  return parseTranscript(text.replace(recorded, `\\"capabilities\\":${JSON.stringify(capabilities).slice(1, -1)}`));
}

function answer(engine: ReplayEngine, method: string, params?: object): unknown {
  const session = engine.openSession('stdio');
  engine.receive(session, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25' } });
  const reply: ReplayAnswer = engine.receive(session, {
    jsonrpc: '2.0',
    id: 7,
    method,
    ...(params && { params }),
  });
  if (reply.kind === 'unmatched') return { error: JSON.parse(reply.text).error.code };
  if (reply.kind !== 'call') return reply.kind;
  const message = reply.call.events.at(-1)?.message;
  return message && 'result' in message ? { result: message.result } : message;
}

/** The chatty golden without its recorded resource lists, as recorded before the handshake listed them. */
async function goldenWithoutResourceLists() {
  const golden = parseTranscript(await readFile(CHATTY, 'utf8'));
  const lists = new Set(
    golden.frames
      .filter((f) => f.dir === 'client->server' && /"method":"resources\//.test(f.raw ?? ''))
      .map((f) => f.exchange),
  );
  expect(lists.size).toBe(2);
  return { ...golden, frames: golden.frames.filter((f) => !lists.has(f.exchange)) };
}

test('an advertised capability with no recorded list gets an empty list, as a live server with none answers', async () => {
  const engine = new ReplayEngine([await goldenWithoutResourceLists()]);
  // The reference server advertises resources; this golden recorded no resources/list.
  expect(answer(engine, 'resources/list', {})).toEqual({ result: { resources: [] } });
  expect(answer(engine, 'resources/templates/list')).toEqual({ result: { resourceTemplates: [] } });
  // The recorded tools/list is still the one served.
  const tools = answer(engine, 'tools/list', {}) as { result: { tools: { name: string }[] } };
  expect(tools.result.tools.map((t) => t.name)).toEqual(['progress', 'long_output', 'chatty', 'audit_log']);
  // Prompts and logging are not advertised: a live server answers method not found, and so does the replay.
  expect(answer(engine, 'prompts/list')).toEqual({ error: -32601 });
  expect(answer(engine, 'logging/setLevel', { level: 'debug' })).toEqual({ error: -32601 });
  expect(answer(engine, 'resources/subscribe', { uri: 'x:/y' })).toEqual({ error: -32601 });
  const remarks = engine.report().requests.filter((r) => r.remark !== undefined);
  expect(remarks.map((r) => r.method)).toEqual(['resources/list', 'resources/templates/list']);
  expect(engine.report().unmatched.map((r) => r.method)).toEqual([
    'prompts/list',
    'logging/setLevel',
    'resources/subscribe',
  ]);
  engine.close();
});

test('logging, subscriptions, completions and prompts are answered where the golden advertised them', async () => {
  const golden = await goldenAdvertising(
    '{"tools":{},"resources":{"subscribe":true},"prompts":{},"logging":{},"completions":{}}',
  );
  const engine = new ReplayEngine([golden]);
  expect(answer(engine, 'logging/setLevel', { level: 'debug' })).toEqual({ result: {} });
  expect(answer(engine, 'resources/subscribe', { uri: 'x:/y' })).toEqual({ result: {} });
  expect(answer(engine, 'resources/unsubscribe', { uri: 'x:/y' })).toEqual({ result: {} });
  expect(answer(engine, 'prompts/list', {})).toEqual({ result: { prompts: [] } });
  expect(answer(engine, 'completion/complete', { ref: { type: 'ref/prompt', name: 'p' } })).toEqual({
    result: { completion: { values: [], total: 0, hasMore: false } },
  });
  expect(answer(engine, 'ping')).toEqual({ result: {} });
  // A request no server answers without a recording stays unmatched.
  expect(answer(engine, 'resources/read', { uri: 'x:/y' })).toEqual({ error: -32601 });
  expect(answer(engine, 'toString')).toEqual({ error: -32601 });
  expect(engine.report().unmatched.map((r) => r.method)).toEqual(['resources/read', 'toString']);
  engine.close();
});

test('resources advertised without subscribe: subscribe stays unanswered', async () => {
  const engine = new ReplayEngine([await goldenAdvertising('{"tools":{},"resources":{"listChanged":true}}')]);
  expect(answer(engine, 'resources/subscribe', { uri: 'x:/y' })).toEqual({ error: -32601 });
  engine.close();
});

test('a recorded list is answered from the recording, not made up', async () => {
  const engine = new ReplayEngine([parseTranscript(await readFile(CHATTY, 'utf8'))]);
  const resources = answer(engine, 'resources/list', {}) as { result: { resources: { name: string }[] } };
  expect(resources.result.resources.map((r) => r.name)).toEqual(['audit-log']);
  // The reference server advertises resources but has no templates: its recorded error is what it answers.
  expect(answer(engine, 'resources/templates/list')).toMatchObject({ error: { code: -32601 } });
  expect(engine.report().requests.filter((r) => r.remark !== undefined)).toEqual([]);
  engine.close();
});
