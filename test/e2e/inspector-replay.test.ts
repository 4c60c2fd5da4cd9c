import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLI, runCli, startCli } from '../support/cli.js';
import { inspectorCli } from '../support/inspector-cli.js';
import { EVERYTHING } from '../support/server-everything.js';

// The Inspector's CLI (1.0.3; the Inspector 2.x needs Node 22) against replays: it sends
// logging/setLevel on connect when logging is advertised, and lists what the server advertises.

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-inspector-'));
  const scenarios = join(dir, 'scenarios.json');
  await writeFile(scenarios, JSON.stringify([{ name: 'echo', tool: 'echo', arguments: { message: 'hi' } }]));
  const recorded = await runCli([
    'record',
    '--stdio',
    `${process.execPath} ${EVERYTHING} stdio`,
    '--scenarios',
    scenarios,
    '--out',
    dir,
  ]);
  expect(recorded.code, recorded.stderr).toBe(0);
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the replay of a plain echo golden of server-everything', () => {
  let replay: Awaited<ReturnType<typeof startCli>>;
  beforeAll(async () => {
    replay = await startCli(['replay', join(dir, 'echo.jsonl'), '--port', '0', '--pace', 'instant']);
  });
  afterAll(async () => {
    await replay?.stop();
  });

  test('answers the Inspector what server-everything advertises: lists, logging/setLevel and the call', async () => {
    const url = [replay.firstLine];
    // Every command connects first, and connecting sends logging/setLevel (logging is advertised).
    const resources = await inspectorCli(url, 'resources/list');
    expect(resources.code, resources.stderr).toBe(0);
    expect(resources.json).toEqual({ resources: [] });
    const prompts = await inspectorCli(url, 'prompts/list');
    expect(prompts.code, prompts.stderr).toBe(0);
    expect(prompts.json).toEqual({ prompts: [] });
    const templates = await inspectorCli(url, 'resources/templates/list');
    expect(templates.json).toEqual({ resourceTemplates: [] });
    const level = await inspectorCli(url, 'logging/setLevel', ['--log-level', 'debug']);
    expect(level.code, level.stderr).toBe(0);
    expect(level.json).toEqual({});
    const tools = await inspectorCli(url, 'tools/list');
    expect((tools.json as { tools: { name: string }[] }).tools.map((t) => t.name)).toContain('echo');
    const call = await inspectorCli(url, 'tools/call', ['--tool-name', 'echo', '--tool-arg', 'message=hi']);
    expect(call.code, call.stderr).toBe(0);
    expect(call.json).toEqual({ content: [{ type: 'text', text: 'Echo: hi' }] });
  }, 60_000);
});

test('the replay of a committed golden serves resources/list, which the reference server advertises', async () => {
  const golden = fileURLToPath(new URL('../../goldens/chatty.jsonl', import.meta.url));
  // The Inspector starts the replay itself, over stdio.
  const replayStdio = [process.execPath, CLI, 'replay', golden, '--stdio'];
  const resources = await inspectorCli(replayStdio, 'resources/list');
  expect(resources.code, resources.stderr).toBe(0);
  expect(resources.json).toEqual({ resources: [] });
  // Prompts are not advertised: the replay answers method not found, as the reference server does.
  const prompts = await inspectorCli(replayStdio, 'prompts/list');
  expect(prompts.code).toBe(1);
  expect(prompts.stderr).toContain('-32601');
}, 60_000);
