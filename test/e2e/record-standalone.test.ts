import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { startFakeMcpServer } from '../support/fake-mcp-server.js';
import { runInProcess } from '../support/in-process-cli.js';
import { useEverythingHttp } from '../support/server-everything.js';

// Over HTTP (2025 era) a server sends requests of its own on the standalone GET stream:
// server-everything asks roots/list there 350 ms after initialized, and again from get-roots-list.

const suite = useEverythingHttp('mcp-golden-standalone-');

test('get-roots-list over HTTP records the root answered on the standalone stream, in under 20 s', async () => {
  const scenarios = join(suite.dir, 'roots.json');
  const root = { uri: 'file:///golden/root', name: 'golden-root' };
  await writeFile(
    scenarios,
    JSON.stringify([
      { name: 'roots', tool: 'get-roots-list', arguments: {}, answers: { 'roots/list': { roots: [root] } } },
    ]),
  );
  const started = Date.now();
  const run = await runInProcess(['record', '--target', suite.http.url, '--scenarios', scenarios, '--out', suite.dir]);
  const seconds = (Date.now() - started) / 1000;
  expect(run.code, run.stderr).toBe(0);
  expect(seconds).toBeLessThan(20);
  const golden = await readFile(join(suite.dir, 'roots.jsonl'), 'utf8');
  const frames = golden
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  // The GET stream carried the server's roots/list, and the recorder's answer went back.
  const get = frames.find((f) => f.channel === 'http' && f.method === 'GET');
  expect(get).toBeDefined();
  const asked = frames.filter((f) => f.exchange === get?.exchange && String(f.raw).includes('"method":"roots/list"'));
  expect(asked.length).toBeGreaterThan(0);
  const result = frames.find((f) => f.dir === 'server->client' && String(f.raw).includes('URI: file:///golden/root'));
  expect(result, 'the tools/call result names the answered root').toBeDefined();
}, 40_000);

test('a request on the standalone stream with no answer fails the scenario at once, naming it', async () => {
  const fake = await startFakeMcpServer('standalone-elicitation');
  try {
    const scenarios = join(suite.dir, 'ask.json');
    // Answers for sampling only: the GET stream opens, but elicitation/create has no answer.
    const answers = {
      'sampling/createMessage': { role: 'assistant', content: { type: 'text', text: 'x' }, model: 'm' },
    };
    await writeFile(scenarios, JSON.stringify([{ name: 'ask', tool: 'work', answers }]));
    const started = Date.now();
    const run = await runInProcess(
      ['record', '--target', fake.url, '--scenarios', scenarios, '--out', join(suite.dir, 'ask')],
      {
        timeoutMs: 15_000,
      },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'the server sent a elicitation/create request on the standalone stream and the scenario has no answer for it',
    );
    expect(run.stderr).toContain('Add "answers": {"elicitation/create": <result>}');
    // Not the scenario's 30 s timeout.
    expect(Date.now() - started).toBeLessThan(10_000);
    // The server was told too, so it is not left waiting.
    const answered = fake.requests.find((r) => r.body.includes('"id":"ask-2"'));
    expect(answered?.body).toContain('"error"');
  } finally {
    await fake.close();
  }
}, 40_000);
