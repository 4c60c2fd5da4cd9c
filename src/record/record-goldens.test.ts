import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isGoldenError } from '../errors.js';
import { type ReferenceServer, startReferenceServer } from '../server/http-server.js';
import { recordGoldens } from './record-goldens.js';
import type { Scenario } from './scenario.js';

let dir: string;
let server: ReferenceServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-record-goldens-'));
  server = await startReferenceServer();
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const slow = (name: string): Scenario => ({
  name,
  tool: 'progress',
  arguments: { steps: 2, step_ms: 100 },
  progressToken: name,
});

/** Records `scenarios` with `concurrency`, counting the calls in flight and the scenarios started. */
async function recordCounting(out: string, scenarios: Scenario[], concurrency: number) {
  let inFlight = 0;
  let maxInFlight = 0;
  const started: string[] = [];
  const finished: string[] = [];
  const outcome = await recordGoldens({
    scenarios,
    outDir: join(dir, out),
    concurrency,
    target: (scenario) => {
      started.push(scenario.name ?? scenario.tool);
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      return server.url;
    },
    onRecorded: (golden) => {
      inFlight--;
      finished.push(golden.name);
    },
  }).then(
    (result) => ({ result, error: undefined }),
    (error: unknown) => ({ result: undefined, error }),
  );
  const files = (await readdir(join(dir, out)).catch(() => [] as string[])).sort();
  return { ...outcome, maxInFlight, started, finished, files };
}

describe('recordGoldens with concurrency', () => {
  test('records up to N scenarios at once and reports them in list order', async () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const run = await recordCounting('lanes', names.map(slow), 3);
    expect(run.error).toBeUndefined();
    expect(run.maxInFlight).toBe(3);
    expect(run.result?.recorded.map((r) => r.name)).toEqual(names);
    expect(run.files).toEqual(names.map((n) => `${n}.jsonl`));
  });

  test('one at a time by default', async () => {
    const run = await recordCounting('default', [slow('a'), slow('b'), slow('c')], 1);
    expect(run.maxInFlight).toBe(1);
    expect(run.finished).toEqual(['a', 'b', 'c']);
  });

  test('after a failure no scenario starts, the ones in flight are written, and the first error is thrown', async () => {
    const scenarios: Scenario[] = [slow('first'), { name: 'typo', tool: 'progres' }, slow('never-1'), slow('never-2')];
    const run = await recordCounting('failure', scenarios, 2);
    expect(isGoldenError(run.error, 'E_UNKNOWN_TOOL')).toBe(true);
    expect(run.started).toEqual(['first', 'typo']);
    expect(run.files).toEqual(['first.jsonl']);
  });

  test.each([0, -1, 1.5, Number.NaN])('concurrency %s is a usage error, before anything is recorded', async (n) => {
    const run = await recordCounting(`bad-${n}`, [slow('a')], n);
    expect(isGoldenError(run.error, 'E_USAGE')).toBe(true);
    expect((run.error as Error).message).toContain('concurrency must be a whole number of at least 1');
    expect(run.started).toEqual([]);
  });
});
