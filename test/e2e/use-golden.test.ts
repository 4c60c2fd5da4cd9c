import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ReferenceServer, startReferenceServer } from '../../src/server/http-server.js';
import { createUserProject, type ProjectRun, runInProject } from '../support/run-in-project.js';

// useGolden in a user's project (the built package installed by name): the SDK v1 client's test
// records on the first run with the server up, replays on the second with the server stopped,
// fails in CI without a golden (writing none), and records again with -u.

const root = fileURLToPath(new URL('../..', import.meta.url));
const vitestBin = join(root, 'node_modules/vitest/vitest.mjs');

const TEST_FILE = `
import 'mcp-golden/vitest';
import { useGolden } from 'mcp-golden/vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, test } from 'vitest';

test('reads the chatty blocks', async () => {
  const { url, mode } = await useGolden('chatty', { target: process.env.TARGET_URL });
  process.stderr.write('useGolden mode: ' + mode + '\\n');
  const client = new Client({ name: 'use-golden-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const result = await client.callTool({ name: 'chatty', arguments: {} });
  expect(result.content.map((block) => block.text)).toEqual([
    'first block: short',
    'second block: a slightly longer string with multiple words',
    'third block: numbers 1 2 3 4 5',
    'fourth block: unicode; café résumé naïve',
  ]);
  await client.close();
});
`;

let project: string;
let server: ReferenceServer | undefined;

function run(env: Record<string, string>, ...args: string[]): Promise<ProjectRun> {
  return runInProject(project, vitestBin, ['run', ...args], { TARGET_URL: targetUrl, ...env }, 60_000);
}

let targetUrl = 'http://127.0.0.1:9/mcp';
const golden = (): string => join(project, '__goldens__', 'client', 'chatty.jsonl');
const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

async function startTarget(): Promise<void> {
  server = await startReferenceServer();
  targetUrl = server.url;
}
async function stopTarget(): Promise<void> {
  await server?.close();
  server = undefined;
}

beforeAll(async () => {
  project = await createUserProject('use-golden');
  await writeFile(join(project, 'vitest.config.mjs'), "export default { test: { include: ['*.test.mjs'] } };\n");
  await writeFile(join(project, 'client.test.mjs'), TEST_FILE);
  await startTarget();
});
afterAll(async () => {
  await stopTarget();
  await rm(project, { recursive: true, force: true });
});

describe('useGolden with the SDK v1 client over HTTP, in a temporary project', { timeout: 120_000 }, () => {
  test('in CI a missing golden fails the test with the command to record it, and nothing is written', async () => {
    const { code, output } = await run({ CI: 'true' });
    expect(code, output).toBe(1);
    expect(output).toContain(
      '[mcp-golden] golden "__goldens__/client/chatty.jsonl" is missing, and goldens are not recorded in CI.',
    );
    expect(output).toContain('Run `npx vitest run client.test.mjs -u` locally');
    expect(output).not.toContain('useGolden mode: record');
    expect(await exists(golden())).toBe(false);
  });

  test('the first run records through the live server and writes the golden when the test ends', async () => {
    const { code, output } = await run({});
    expect(code, output).toBe(0);
    expect(output).toContain('useGolden mode: record');
    expect(output).toMatch(/\[mcp-golden\] recorded golden __goldens__\/client\/chatty\.jsonl \(\d+ frames\)/);
    const text = await readFile(golden(), 'utf8');
    expect(text.split('\n')[0]).toContain('"format":"mcp-golden/1"');
    expect(text.split('\n')[0]).toContain(`"target":"${targetUrl}"`);
    expect(text).toContain('fourth block: unicode; café résumé naïve');
  });

  test('the second run replays the golden with the server stopped, in CI too, and changes no file', async () => {
    const before = await readFile(golden(), 'utf8');
    await stopTarget();
    const { code, output } = await run({ CI: 'true' });
    expect(code, output).toBe(0);
    expect(output).toContain('useGolden mode: replay');
    expect(output).not.toContain('obsolete golden');
    expect(await readFile(golden(), 'utf8')).toBe(before);
  });

  test('-u records again from the live server (and fails, writing nothing, when it is down)', async () => {
    const before = await readFile(golden(), 'utf8');
    const down = await run({}, '-u');
    expect(down.code, down.output).toBe(1);
    expect(down.output).toContain('useGolden mode: record');
    expect(down.output).toContain('golden __goldens__/client/chatty.jsonl not written: the test failed');
    expect(await readFile(golden(), 'utf8')).toBe(before);

    await startTarget();
    const { code, output } = await run({}, '-u');
    expect(code, output).toBe(0);
    expect(output).toContain('useGolden mode: record');
    const after = await readFile(golden(), 'utf8');
    // The new server listens on another port: the header names the target recorded this time.
    expect(after.split('\n')[0]).toContain(`"target":"${targetUrl}"`);
    expect(after).not.toBe(before);
  });
});

// A stdio server that dies under useGolden: the SDK v1 client sees only "Connection closed"; the test
// also fails with an [mcp-golden] error naming the server, its exit and its stderr, and writes nothing.
const DYING_SERVER = `process.stdin.once('data', () => { process.stderr.write('config.json: no such file\\n'); process.exit(3); });`;
const DYING_TEST = `
import { useGolden } from 'mcp-golden/vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { test } from 'vitest';

test('calls a stdio server that dies', async () => {
  const { command, args } = await useGolden('dying', { stdio: { command: process.execPath, args: ['dying-server.cjs'] } });
  const client = new Client({ name: 'use-golden-dying', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args }));
});
`;

test('a stdio server that dies while useGolden records fails the test naming its exit and stderr, and writes no golden', async () => {
  await writeFile(join(project, 'dying-server.cjs'), DYING_SERVER);
  await writeFile(join(project, 'dying.test.mjs'), DYING_TEST);
  const { code, output } = await run({}, 'dying.test.mjs');
  expect(code, output).toBe(1);
  expect(output).toContain('[mcp-golden] useGolden could not record __goldens__/dying/dying.jsonl: the stdio server "');
  expect(output).toContain(
    'dying-server.cjs" stopped serving: it exited with code 3; its stderr ended with: config.json: no such file',
  );
  expect(await exists(join(project, '__goldens__', 'dying', 'dying.jsonl'))).toBe(false);
}, 120_000);
