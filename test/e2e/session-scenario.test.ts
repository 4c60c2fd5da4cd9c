import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runInProcess, startInProcess } from '../support/in-process-cli.js';
import { inspectorCli } from '../support/inspector-cli.js';
import { EVERYTHING } from '../support/server-everything.js';
import { useTempDir } from '../support/temp-dir.js';

// A scenario as a whole session of server-everything: lists, a resource read, a prompt and a call
// in one golden, replayed to the Inspector 2.12.0 CLI, re-run by verify, judged by lint.

const URI = 'demo://resource/static/document/features.md';
const SESSION = {
  name: 'everything-session',
  steps: [
    { method: 'resources/list' },
    { method: 'resources/read', params: { uri: URI } },
    { method: 'prompts/list' },
    // As the Inspector sends it: prompts/get with its (empty) arguments.
    { method: 'prompts/get', params: { name: 'simple-prompt', arguments: {} } },
    { tool: 'echo', arguments: { message: 'hi' } },
  ],
};
const STDIO = `${process.execPath} ${EVERYTHING} stdio`;

const temp = useTempDir('mcp-golden-session-');
let golden: string;
beforeAll(async () => {
  const scenarios = join(temp.dir, 'scenarios.json');
  await writeFile(scenarios, JSON.stringify([SESSION]));
  const recorded = await runInProcess(['record', '--stdio', STDIO, '--scenarios', scenarios, '--out', temp.dir]);
  expect(recorded.code, recorded.stderr).toBe(0);
  golden = join(temp.dir, 'everything-session.jsonl');
}, 60_000);

test('records every step of the session in order, after the handshake', async () => {
  const text = await readFile(golden, 'utf8');
  const methods = text
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line) as { dir: string; raw?: string })
    .filter((f) => f.dir === 'client->server' && f.raw !== undefined)
    .map((f) => JSON.parse(f.raw as string) as { method?: string; id?: unknown })
    .filter((m) => m.method !== undefined && m.id !== undefined)
    .map((m) => m.method);
  expect(methods).toEqual([
    'initialize',
    'tools/list',
    'resources/list',
    'resources/templates/list',
    'prompts/list',
    ...SESSION.steps.map((s) => ('method' in s ? s.method : 'tools/call')),
  ]);
});

describe('the replay of the session golden', () => {
  let replay: Awaited<ReturnType<typeof startInProcess>>;
  beforeAll(async () => {
    replay = await startInProcess(['replay', golden, '--port', '0', '--pace', 'instant']);
  });
  afterAll(async () => {
    await replay?.stop();
  });

  test("answers the Inspector's tools/list, resources/list, resources/read, prompts/list, prompts/get and tools/call", async () => {
    const url = [replay.firstLine];
    const run = async (method: string, args: string[] = []) => {
      const result = await inspectorCli(url, method, args);
      expect(result.code, `${method}: ${result.stderr}`).toBe(0);
      return result.json as Record<string, { name?: string; uri?: string; text?: string }[]>;
    };
    expect((await run('tools/list')).tools?.map((t) => t.name)).toContain('echo');
    expect((await run('resources/list')).resources?.map((r) => r.uri)).toContain(URI);
    expect((await run('resources/read', ['--uri', URI])).contents?.[0]?.text).toContain('Everything Server');
    expect((await run('prompts/list')).prompts?.map((p) => p.name)).toContain('simple-prompt');
    expect((await run('prompts/get', ['--prompt-name', 'simple-prompt'])).messages).toHaveLength(1);
    expect(await run('tools/call', ['--tool-name', 'echo', '--tool-arg', 'message=hi'])).toEqual({
      content: [{ type: 'text', text: 'Echo: hi' }],
    });
  }, 90_000);
});

test('verify re-runs every step and catches a changed resources/read answer; lint judges the call', async () => {
  const same = await runInProcess(['verify', golden, '--stdio', STDIO]);
  expect(same.code, same.stdout + same.stderr).toBe(0);
  const changed = join(temp.dir, 'changed.jsonl');
  const text = await readFile(golden, 'utf8');
  expect(text).toContain('# Everything Server - Features');
  await writeFile(changed, text.replace('# Everything Server - Features', '# Everything Server - FEATURES'));
  const verdict = await runInProcess(['verify', changed, '--stdio', STDIO]);
  expect(verdict.code).toBe(1);
  expect(verdict.stdout + verdict.stderr).toContain(`resources/read {"uri":"${URI}"} $.result.contents[0].text`);
  const lint = await runInProcess(['lint', golden]);
  expect(lint.code, lint.stdout + lint.stderr).toBe(0);
}, 60_000);

test("a session's later calls are judged too: lint checks their progress, verify their results", async () => {
  const scenarios = join(temp.dir, 'two.json');
  const steps = [
    { tool: 'echo', arguments: { message: 'hi' } },
    { tool: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 2 }, progressToken: 'lro' },
  ];
  await writeFile(scenarios, JSON.stringify([{ name: 'two-calls', steps }]));
  const recorded = await runInProcess(['record', '--stdio', STDIO, '--scenarios', scenarios, '--out', temp.dir]);
  expect(recorded.code, recorded.stderr).toBe(0);
  const file = join(temp.dir, 'two-calls.jsonl');
  expect((await runInProcess(['lint', file])).code).toBe(0);
  expect((await runInProcess(['verify', file, '--stdio', STDIO])).code).toBe(0);
  const lines = (await readFile(file, 'utf8')).split('\n');
  // The second call's notifications carry another token: a token-echo violation of that call.
  const badToken = join(temp.dir, 'bad-token.jsonl');
  await writeFile(
    badToken,
    lines
      .map((l) =>
        l.includes('"dir":"server->client"') && l.includes('notifications/progress')
          ? l.replace('\\"progressToken\\":\\"lro\\"', '\\"progressToken\\":\\"other\\"')
          : l,
      )
      .join('\n'),
  );
  const lint = await runInProcess(['lint', badToken]);
  expect(lint.code).toBe(1);
  expect(lint.stdout + lint.stderr).toContain('token-echo');
  // The second call's result changed: verify names that call.
  const badResult = join(temp.dir, 'bad-result.jsonl');
  await writeFile(
    badResult,
    lines.join('\n').replace('Long running operation completed', 'Long running operation DONE'),
  );
  const verdict = await runInProcess(['verify', badResult, '--stdio', STDIO]);
  expect(verdict.code).toBe(1);
  expect(verdict.stdout + verdict.stderr).toContain(
    'tools/call {"arguments":{"duration":0.3,"steps":2},"name":"trigger-long-running-operation"}',
  );
}, 60_000);
