import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createReplayServer, readGolden } from 'mcp-golden';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLI } from '../support/cli.js';
import { runInProcess, startInProcess } from '../support/in-process-cli.js';
import { INSPECTOR_VERSION, inspectorCli, inspectorCliVersion } from '../support/inspector-cli.js';
import { EVERYTHING } from '../support/server-everything.js';
import { useTempDir } from '../support/temp-dir.js';

// The MCP Inspector 2.12.0's CLI (installed in .inspector/ by scripts/inspector/install.mjs; it declares
// Node >= 22.19 and runs on Node 20) against replays: it sends logging/setLevel on connect when logging is
// advertised, lists what the server advertises, and answers an empty list for what it does not.

const temp = useTempDir('mcp-golden-inspector-');
beforeAll(async () => {
  const scenarios = join(temp.dir, 'scenarios.json');
  await writeFile(
    scenarios,
    JSON.stringify([
      { name: 'echo', tool: 'echo', arguments: { message: 'hi' } },
      // prompts/get recorded without arguments: the Inspector sends `arguments: {}`.
      {
        name: 'prompt',
        steps: [
          { method: 'prompts/get', params: { name: 'simple-prompt' } },
          { tool: 'echo', arguments: { message: 'hi' } },
        ],
      },
    ]),
  );
  const recorded = await runInProcess([
    'record',
    '--stdio',
    `${process.execPath} ${EVERYTHING} stdio`,
    '--scenarios',
    scenarios,
    '--out',
    temp.dir,
  ]);
  expect(recorded.code, recorded.stderr).toBe(0);
}, 60_000);

describe('the replay of a plain echo golden of server-everything', () => {
  let replay: Awaited<ReturnType<typeof startInProcess>>;
  beforeAll(async () => {
    replay = await startInProcess(['replay', join(temp.dir, 'echo.jsonl'), '--port', '0', '--pace', 'instant']);
  });
  afterAll(async () => {
    await replay?.stop();
  });

  test('answers the Inspector what server-everything advertises: lists, logging/setLevel and the call', async () => {
    const url = [replay.firstLine];
    // Every command connects first, and connecting sends logging/setLevel (logging is advertised).
    // The recorder listed what server-everything advertises after initialize: the lists come from the golden.
    const resources = await inspectorCli(url, 'resources/list');
    expect(resources.code, resources.stderr).toBe(0);
    expect((resources.json as { resources: unknown[] }).resources.length).toBeGreaterThan(0);
    const prompts = await inspectorCli(url, 'prompts/list');
    expect(prompts.code, prompts.stderr).toBe(0);
    expect((prompts.json as { prompts: { name: string }[] }).prompts.map((p) => p.name)).toContain('simple-prompt');
    const templates = await inspectorCli(url, 'resources/templates/list');
    expect(templates.code, templates.stderr).toBe(0);
    expect((templates.json as { resourceTemplates: unknown[] }).resourceTemplates.length).toBeGreaterThan(0);
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

test("the Inspector's prompts/get (arguments: {}) is answered from a golden recorded without arguments, and the report says so", async () => {
  const golden = await readGolden(join(temp.dir, 'prompt.jsonl'));
  expect(golden.frames.some((f) => f.raw?.includes('"prompts/get"') && !f.raw.includes('"arguments"'))).toBe(true);
  const replay = await createReplayServer(golden, { pace: 'instant' });
  try {
    const got = await inspectorCli([replay.url], 'prompts/get', ['--prompt-name', 'simple-prompt']);
    expect(got.code, got.stderr).toBe(0);
    expect(JSON.stringify(got.json)).toContain('This is a simple prompt without arguments');
    const entry = replay.report().requests.find((r) => r.method === 'prompts/get');
    expect(entry?.matched).not.toBeNull();
    expect(entry?.remark).toContain('matched a recording made without arguments');
  } finally {
    await replay.close();
  }
}, 60_000);

test('the Inspector these tests drive is the 2.12.0 CLI', async () => {
  expect(INSPECTOR_VERSION).toBe('2.12.0');
  expect(await inspectorCliVersion()).toBe(INSPECTOR_VERSION);
});

test('the replay of a committed golden serves its recorded resources/list; prompts it does not advertise are not asked for', async () => {
  const golden = fileURLToPath(new URL('../../goldens/chatty.jsonl', import.meta.url));
  // The Inspector starts the replay itself, over stdio.
  const replayStdio = [process.execPath, CLI, 'replay', golden, '--stdio'];
  const resources = await inspectorCli(replayStdio, 'resources/list');
  expect(resources.code, resources.stderr).toBe(0);
  expect(resources.json).toMatchObject({ resources: [{ name: 'audit-log' }] });
  // Prompts are not advertised: the Inspector 2.12.0 answers an empty list without asking the server.
  const prompts = await inspectorCli(replayStdio, 'prompts/list');
  expect(prompts.code, prompts.stderr).toBe(0);
  expect(prompts.json).toEqual({ prompts: [] });
  const replay = await createReplayServer(await readGolden(golden), { pace: 'instant' });
  try {
    const overHttp = await inspectorCli([replay.url], 'prompts/list');
    expect(overHttp.json).toEqual({ prompts: [] });
    expect(replay.report().requests.map((r) => r.method)).not.toContain('prompts/list');
  } finally {
    await replay.close();
  }
}, 60_000);

describe('a call with a progress token against a golden recorded without one', () => {
  const call = async (match?: 'strict' | 'ignore-token') => {
    const golden = { file: join(temp.dir, 'echo.jsonl'), golden: await readGolden(join(temp.dir, 'echo.jsonl')) };
    const server = await createReplayServer([golden], { pace: 'instant', ...(match && { match }) });
    const client = new Client({ name: 'onprogress', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      const progress: unknown[] = [];
      // The SDK sends `_meta.progressToken` whenever onprogress is set.
      const result = await client
        .callTool({ name: 'echo', arguments: { message: 'hi' } }, undefined, { onprogress: (p) => progress.push(p) })
        .catch((error: Error) => error);
      const entry = server.report().requests.find((r) => r.method === 'tools/call');
      return { result, progress, entry };
    } finally {
      await client.close();
      await server.close();
    }
  };

  test('is answered with its echo and no progress by default, and the report says the token was ignored', async () => {
    const { result, progress, entry } = await call();
    expect(result).toEqual({ content: [{ type: 'text', text: 'Echo: hi' }] });
    expect(progress).toEqual([]);
    expect(entry?.matched).toMatch(/^echo\.jsonl #\d+$/);
    expect(entry?.remark).toContain('matched a recording made without a progress token (match: ignore-token)');
  });

  test("is refused under match 'strict', naming the token", async () => {
    const { result, entry } = await call('strict');
    expect(String(result)).toContain('params._meta.progressToken: not recorded, got');
    expect(entry?.matched).toBeNull();
  });

  test('the CLI takes --match: the default answers over stdio, strict refuses, anything else is a usage error', async () => {
    const callOverStdio = async (extra: string[]) => {
      const client = new Client({ name: 'onprogress', version: '1' });
      const args = [CLI, 'replay', join(temp.dir, 'echo.jsonl'), '--stdio', '--pace', 'instant', ...extra];
      await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));
      try {
        return await client
          .callTool({ name: 'echo', arguments: { message: 'hi' } }, undefined, { onprogress: () => undefined })
          .catch((error: Error) => error);
      } finally {
        await client.close();
      }
    };
    expect(await callOverStdio([])).toEqual({ content: [{ type: 'text', text: 'Echo: hi' }] });
    expect(String(await callOverStdio(['--match', 'strict']))).toContain('params._meta.progressToken: not recorded');
    const wrong = await runInProcess(['replay', join(temp.dir, 'echo.jsonl'), '--stdio', '--match', 'loose']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Invalid --match "loose": expected one of ignore-token, strict.');
    const golden = await readGolden(join(temp.dir, 'echo.jsonl'));
    await expect(createReplayServer(golden, { match: 'loose' as 'strict' })).rejects.toThrow(
      "Invalid replay option match: expected 'ignore-token' or 'strict', got \"loose\"",
    );
  }, 30_000);
});
