import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { runGatewayCheck } from '../../../src/check/run-check.js';
import type { CheckReport } from '../../../src/check/vocabulary.js';

const support = (name: string): string => fileURLToPath(new URL(`../../support/${name}`, import.meta.url));
const BRIDGE = `'${process.execPath}' '${support('stdio-bridge.mjs')}' faithful '{upstream}'`;
const FAITHFUL = `'${process.execPath}' '${support('faithful-gateway.mjs')}' {upstream} {port}`;
/** `command` behind a start-up delay, as `npx -y` on a cold cache adds one (each process it starts). */
const slow = (ms: number, command: string, count?: { file: string; fast: number }): string =>
  `'${process.execPath}' '${support('slow-start.mjs')}' ${ms} "${command.replaceAll('"', '\\"')}"${count ? ` ${count.file} ${count.fast}` : ''}`;
const verdicts = (report: CheckReport): string[] => report.results.map((r) => `${r.verdict} ${r.property}`);

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('a gateway start is setup, not a verdict', () => {
  test('over a stdio client (a gateway process per session): a 1.5 s start-up delay below --timeout gives every row the verdict of the direct start', async () => {
    const run = (gateway: string) =>
      // --timeout far above the 1.5 s delay: a process start on a loaded 2-core machine takes seconds more.
      runGatewayCheck({ gateway, upstreamTransport: 'stdio', clientTransport: 'stdio', timeoutMs: 15_000 });
    const direct = await run(BRIDGE);
    const delayed = await run(slow(1500, BRIDGE));
    expect(verdicts(delayed)).toEqual(verdicts(direct));
    expect(delayed.results.filter((r) => r.verdict === 'fail').map((r) => `${r.property}: ${r.evidence}`)).toEqual([]);
    // Every session started a process: the summary says how long they took.
    expect(delayed.starts?.count).toBeGreaterThan(10);
    expect(delayed.starts?.medianMs).toBeGreaterThanOrEqual(1500);
    expect(direct.starts?.medianMs).toBeLessThan(delayed.starts?.medianMs ?? 0);
    expect(delayed.starts?.late).toBe(0);
  }, 600_000);

  test('over HTTP: a gateway that listens 1.5 s late gets the verdicts of the direct start', async () => {
    const only = ['progress tokens', 'blocks', 'unicode', 'cancellation', 'concurrent'];
    const direct = await runGatewayCheck({ gateway: FAITHFUL, only, timeoutMs: 5000 });
    const delayed = await runGatewayCheck({ gateway: slow(1500, FAITHFUL), only, timeoutMs: 5000 });
    expect(verdicts(delayed)).toEqual(verdicts(direct));
    expect(delayed.pass).toBe(true);
    expect(delayed.starts?.count).toBe(1);
    expect(delayed.starts?.longestMs).toBeGreaterThanOrEqual(1500);
  }, 120_000);

  // The tests below wait on timers (a gateway asleep past --timeout, `sleep 30`) with next to no CPU: they
  // run at once, after the two above that compare verdicts and so judge rows on time.
  test.concurrent('sessions whose gateway process is not ready within --timeout are inconclusive, never FAIL, and the run passes', async ({
    expect,
  }) => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-golden-slow-start-'));
    dirs.push(dir);
    // The check's first call starts at once (within the 5 s timeout, even on a loaded machine); every
    // later process sleeps past it.
    const gateway = slow(12_000, BRIDGE, { file: join(dir, 'starts'), fast: 1 });
    const report = await runGatewayCheck({
      gateway,
      upstreamTransport: 'stdio',
      clientTransport: 'stdio',
      timeoutMs: 5000,
      only: ['progress tokens (string)', 'blocks', 'unicode'],
    });
    expect(verdicts(report)).toEqual([
      'inconclusive progress tokens (string)',
      'inconclusive blocks: count and order',
      'inconclusive unicode',
    ]);
    expect(report.results[0]?.evidence).toMatch(
      /^the gateway did not start in time: Waiting for the answer to initialize .*nothing arrived within 5000 ms.*raise --timeout, now 5000 ms/,
    );
    expect(report.pass).toBe(true);
    expect(report.starts?.late).toBe(3);
  }, 120_000);

  test.concurrent.for([
    ['http', 'did not listen within 2000 ms'],
    ['stdio', 'did not answer initialize within 2000 ms'],
  ] as const)(
    'a gateway that writes nothing and does not get ready over %s is a setup error naming --timeout and npx -y',
    { timeout: 30_000 },
    async ([clientTransport, seen], { expect }) => {
      // `sleep` stands for `npx -y some-gateway` still downloading: no output, no listen, no answer.
      const failed = runGatewayCheck({
        gateway: 'sleep 30 # npx -y my-gateway {upstream} {port}',
        clientTransport,
        timeoutMs: 2000,
      });
      await expect(failed).rejects.toMatchObject({ name: 'CheckSetupError' });
      const message = await failed.catch((error: Error) => error.message);
      expect(message).toContain(`Likely fix: the gateway wrote nothing and ${seen}`);
      expect(message).toMatch(
        /raise --timeout \(e\.g\. --timeout 60000\), or install the gateway first .* instead of `npx -y`/,
      );
      expect(message).not.toContain('Check that it takes {port}');
    },
  );

  test.concurrent('a gateway that says something and never listens is told to check {port}, not --timeout', async ({
    expect,
  }) => {
    const failed = runGatewayCheck({
      gateway: 'echo listening on 8080; sleep 30 # {upstream} {port}',
      timeoutMs: 2000,
    });
    const message = await failed.catch((error: Error) => error.message);
    expect(message).toContain('Check that it takes {port} as its listening port');
    expect(message).not.toContain('raise --timeout');
  }, 30_000);
});
