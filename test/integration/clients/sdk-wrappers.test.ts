import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type StartedInProcess, startInProcess } from '../../support/in-process-cli.js';
import { CLIENTS, linesOf, type PlannedCall, runClient } from '../../support/run-client.js';

// The shipped wrappers (clients/sdk-v1.mjs, clients/sdk-v2.mjs) are processes: the check runs them
// with /bin/sh, so they are spawned here as the check spawns them, against `serve --check-tools`.

let server: StartedInProcess;
let url: string;

beforeAll(async () => {
  server = await startInProcess(['serve', '--check-tools', '--port', '0']);
  url = server.firstLine;
});
afterAll(async () => {
  await server.stop();
});

const CALLS: PlannedCall[] = [
  { name: 'progress', arguments: { steps: 3, step_ms: 30 }, progress: true },
  { name: 'chatty', arguments: {} },
  { name: 'progress', arguments: { steps: 100, step_ms: 100 }, progress: true, abortAfterMs: 250 },
  { name: 'no_such_tool', arguments: {} },
  { name: 'long_output', arguments: { blocks: 2, chars: 12 } },
];

const CHATTY = [
  'first block: short',
  'second block: a slightly longer string with multiple words',
  'third block: numbers 1 2 3 4 5',
  'fourth block: unicode; café résumé naïve',
].join('\n');

const cases = [
  { client: 'sdkV1', era: '2025-11-25' },
  { client: 'sdkV2', era: '2025-11-25' },
  { client: 'sdkV2', era: '2026-07-28' },
] as const;

describe.each(cases)('$client in $era', { timeout: 30_000 }, ({ client, era }) => {
  test('prints progress, result, aborted and error lines, one call after another, and exits 0', async () => {
    const run = await runClient(CLIENTS[client], url, { era, calls: CALLS });
    expect(run.code).toBe(0);
    expect(linesOf(run, 0)).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
      { result: '{"steps":3,"notified":true,"done":true}' },
    ]);
    expect(linesOf(run, 1)).toEqual([{ result: CHATTY }]);
    const aborted = linesOf(run, 2);
    expect(aborted.at(-1)).toEqual({ aborted: true });
    expect(aborted.length).toBeGreaterThan(1);
    expect(aborted.slice(0, -1).every((line) => line.total === 100)).toBe(true);
    expect(linesOf(run, 3)).toEqual([{ error: expect.stringContaining('no_such_tool') }]);
    expect(linesOf(run, 4)).toEqual([{ result: '[block 0] ab\n[block 1] ab' }]);
    // Calls run in plan order: call 2 ends (aborted) before call 3 starts.
    expect(run.lines.map((line) => line.call).filter((c, i, all) => c !== all[i - 1])).toEqual([0, 1, 2, 3, 4]);
  });

  test('concurrent calls each report their own progress', async () => {
    const run = await runClient(CLIENTS[client], url, {
      era,
      concurrent: true,
      calls: [
        { name: 'progress', arguments: { steps: 4, step_ms: 40 }, progress: true },
        { name: 'progress', arguments: { steps: 2, step_ms: 40 }, progress: true },
        { name: 'progress', arguments: { steps: 2, step_ms: 10 } },
      ],
    });
    expect(run.code).toBe(0);
    expect(linesOf(run, 0).map((line) => line.progress ?? line.result)).toEqual([
      1,
      2,
      3,
      4,
      '{"steps":4,"notified":true,"done":true}',
    ]);
    expect(linesOf(run, 1).map((line) => line.total ?? line.result)).toEqual([
      2,
      2,
      '{"steps":2,"notified":true,"done":true}',
    ]);
    // No progress asked for: no token sent, so none reported.
    expect(linesOf(run, 2)).toEqual([{ result: '{"steps":2,"notified":false,"done":true}' }]);
  });
});

test('sdk-v2 in 2026-07-28 answers input_required and prints the completed result', async () => {
  const run = await runClient(CLIENTS.sdkV2, url, {
    era: '2026-07-28',
    calls: [{ name: 'input_round', arguments: {} }],
  });
  expect(run.code).toBe(0);
  const [line] = linesOf(run, 0);
  expect(JSON.parse(line?.result ?? 'null')).toMatchObject({
    inputResponses: { confirm: { action: 'accept' } },
    requestState: 'round-1 é🚀 "quoted" \\ / + = \u2028 end',
  });
});

test('sdk-v1 asked for 2026-07-28 prints an error line for every call instead of speaking 2025', async () => {
  const run = await runClient(CLIENTS.sdkV1, url, {
    era: '2026-07-28',
    calls: [
      { name: 'chatty', arguments: {} },
      { name: 'chatty', arguments: {} },
    ],
  });
  expect(run.lines).toEqual([
    { call: 0, error: 'SDK v1 does not speak 2026-07-28' },
    { call: 1, error: 'SDK v1 does not speak 2026-07-28' },
  ]);
});

test('a wrapper started without a plan exits 2 with a [mcp-golden] message naming the fix', async () => {
  const { spawnSync } = await import('node:child_process');
  const [node, file] = CLIENTS.sdkV1;
  const env = { ...process.env };
  delete env.MCP_GOLDEN_PLAN;
  const run = spawnSync(node, [file, url], { env, encoding: 'utf8' });
  expect(run.status).toBe(2);
  expect(run.stderr).toContain('[mcp-golden] sdk-v1.mjs: MCP_GOLDEN_PLAN is not set');
  expect(run.stderr).toContain("mcp-golden check --client 'node sdk-v1.mjs'");
});
