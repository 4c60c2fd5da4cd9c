import 'mcp-golden/vitest';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Recording, recordCall, writeGolden } from 'mcp-golden';
import { beforeAll, describe, expect, test } from 'vitest';
import { runInProcess } from '../support/in-process-cli.js';
import { useTempDir } from '../support/temp-dir.js';

// A server nobody here wrote, run over stdio as a client would spawn it. (Its HTTP transport binds
// every interface on a fixed port, which the tests here never do.)
const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

const temp = useTempDir('mcp-golden-lint-everything-');
let recording: Recording;

beforeAll(async () => {
  recording = await recordCall(
    { command: process.execPath, args: [EVERYTHING, 'stdio'], label: 'mcp-server-everything stdio' },
    {
      name: 'everything-long-running',
      tool: 'trigger-long-running-operation',
      arguments: { duration: 0.6, steps: 3 },
      progressToken: 'everything-1',
    },
  );
  await writeGolden(join(temp.dir, 'everything-long-running.jsonl'), recording);
}, 30_000);

describe('lint on @modelcontextprotocol/server-everything', () => {
  test('its long-running operation is recorded with every progress step and follows the progress contract', async () => {
    expect(recording.outcome.progress.map((p) => (p.params as { progress: number }).progress)).toEqual([1, 2, 3]);
    const json = join(temp.dir, 'report.json');
    const { code, stdout } = await runInProcess([
      'lint',
      join(temp.dir, 'everything-long-running.jsonl'),
      '--json',
      json,
    ]);
    expect(stdout).toContain('everything-long-running.jsonl: ok (5 requests)');
    expect(code).toBe(0);
    const report = JSON.parse(await readFile(json, 'utf8')) as { violations: number; goldens: { calls: number }[] };
    expect(report).toMatchObject({ violations: 0, goldens: [{ calls: 5 }] });
    expect(recording).toFollowProgressContract();
  });

  test('its 200 ms steps pass the default rate rule; a stricter window and interval flag them', async () => {
    const { code, stdout } = await runInProcess([
      'lint',
      join(temp.dir, 'everything-long-running.jsonl'),
      '--min-interval-ms',
      '1000',
    ]);
    // Three notifications are two intervals: below the default window of five, so rate is not judged.
    expect(code).toBe(0);
    expect(stdout).toContain('ok (5 requests)');
    expect(() => expect(recording).toFollowProgressContract({ minIntervalMs: 1000, rateWindow: 2 })).toThrow(
      /rate: 3 notifications arrived within \d+\.\d ms/,
    );
  });
});
