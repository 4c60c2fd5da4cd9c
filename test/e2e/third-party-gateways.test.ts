import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CheckReport, runGatewayCheck } from 'mcp-golden/check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../support/cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const nginx = join(root, 'test/support/nginx-gateway.sh');
const supergateway = join(root, 'node_modules/.bin/supergateway');
const hasNginx = (() => {
  try {
    execFileSync('nginx', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
// CI installs nginx (.ci/run); a developer machine without it skips these, and CI fails loudly instead.
const nginxMissing = !hasNginx && !process.env.CI;

const verdicts = (report: CheckReport): Record<string, string> =>
  Object.fromEntries(report.results.map((r) => [r.property, r.verdict]));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-check-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(nginxMissing)('nginx (Debian package) as the gateway', () => {
  test('configured faithfully (proxy_buffering off), every property passes', async () => {
    const report = await runGatewayCheck({ gateway: `bash ${nginx} {upstream} {port} faithful`, timeoutMs: 5000 });
    expect(report.results.filter((r) => r.verdict !== 'pass')).toEqual([]);
    expect(report.pass).toBe(true);
  }, 120_000);

  test('with gzip buffering, the check fails on live streaming and passes what still holds', async () => {
    const json = join(dir, 'report.json');
    const svg = join(dir, 'timeline.svg');
    const result = await runCli([
      'check',
      '--gateway',
      `bash ${nginx} {upstream} {port} buffering`,
      '--timeout',
      '3000',
      '--json',
      json,
      '--svg',
      svg,
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /progress streams live \(50 ms steps\)\s+\| FAIL \| 10 of 10 notifications arrived within 5 ms of the/,
    );
    expect(result.stdout).toContain('the gateway breaks MCP streaming');
    expect(result.stderr).toContain('[mcp-golden] [1/18] progress tokens (string) ... pass');
    const report = JSON.parse(await readFile(json, 'utf8')) as CheckReport;
    expect(verdicts(report)).toMatchObject({
      'progress tokens (string)': 'pass',
      'progress tokens (number)': 'pass',
      'progress streams live (50 ms steps)': 'fail',
      'progress streams live (500 ms steps)': 'fail',
      'blocks: count and order': 'pass',
      unicode: 'pass',
      'large output (50 x 64 KiB)': 'pass',
      'large multibyte output (8 x 64 Ki chars)': 'pass',
      'final progress back-to-back with the result': 'pass',
      // Held-back progress comes too late to cancel after progress 2; a timed cancel still works.
      'cancellation (string id, after progress 2)': 'fail',
      'cancellation (no progress needed, after 300 ms)': 'pass',
      'progress on the call stream (GET stream open)': 'pass',
      'concurrent calls without cross-talk': 'pass',
    });
    const drawing = await readFile(svg, 'utf8');
    expect(drawing.startsWith('<svg')).toBe(true);
    expect(drawing.match(/<circle/g)?.length ?? 0).toBeGreaterThan(20);
  }, 120_000);
});

describe('supergateway (npm) bridging a stdio upstream to Streamable HTTP', () => {
  test('streams faithfully call by call, but mixes notifications between concurrent calls of one session', async () => {
    const report = await runGatewayCheck({
      gateway: `${supergateway} --stdio "{upstream}" --outputTransport streamableHttp --stateful --port {port} --logLevel none`,
      upstreamTransport: 'stdio',
      timeoutMs: 10_000,
    });
    expect(report.results.filter((r) => r.verdict === 'fail').map((r) => r.property)).toEqual([
      'concurrent calls without cross-talk',
    ]);
    expect(report.results.at(-1)?.evidence).toMatch(
      /^client→gateway \(on one session\): call \d received \d+ notifications of other calls/,
    );
    expect(verdicts(report)).toMatchObject({
      'progress streams live (50 ms steps)': 'pass',
      'large multibyte output (8 x 64 Ki chars)': 'pass',
      'cancellation (string id, after progress 2)': 'pass',
      'Last-Event-ID resume': 'n/a',
    });
  }, 180_000);
});

describe('supergateway (npm) bridging a Streamable HTTP upstream to a stdio client', () => {
  test('is caught dropping every progress notification and losing cancels, with evidence from both legs', async () => {
    const report = await runGatewayCheck({
      gateway: `${supergateway} --streamableHttp {upstream} --logLevel none`,
      clientTransport: 'stdio',
      timeoutMs: 10_000,
    });
    expect(report.pass).toBe(false);
    expect(verdicts(report)).toEqual({
      'progress tokens (string)': 'fail',
      'progress tokens (number)': 'fail',
      'no progress without a token': 'pass',
      'progress streams live (50 ms steps)': 'fail',
      'progress streams live (500 ms steps)': 'fail',
      'blocks: count and order': 'pass',
      unicode: 'pass',
      'large output (50 x 64 KiB)': 'pass',
      'Last-Event-ID resume': 'n/a',
      'large multibyte output (8 x 64 Ki chars)': 'pass',
      'final progress back-to-back with the result': 'fail',
      'cancellation (string id, after progress 2)': 'fail',
      'cancellation (large numeric id, after progress 2)': 'fail',
      'cancellation (no progress needed, after 300 ms)': 'fail',
      'progress on the call stream (GET stream open)': 'n/a',
      'burst (200 notifications at once)': 'fail',
      'slow reader (100 x 16 KiB notifications)': 'fail',
      'concurrent calls without cross-talk': 'pass',
    });
    expect(report.results[0]?.evidence).toBe(
      'received 0 of 5 progress notifications (the last 5 missing); the upstream received token "check-token-é-🚀" (string) and sent 5 notifications',
    );
    const timed = report.results.find((r) => r.property === 'cancellation (no progress needed, after 300 ms)');
    expect(timed?.evidence).toMatch(
      /^client→gateway: sent ".*notifications\/cancelled.*" \d+ ms into the call\. gateway→upstream: the upstream \(audit row \d+\) received request id/,
    );
  }, 180_000);
});

describe('gateways that misbehave as processes', () => {
  test('one that never listens is reported, bounded by the timeout', async () => {
    const started = Date.now();
    const result = await runCli(['check', '--gateway', 'sleep 30 # {upstream} {port}', '--timeout', '2000']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/did not listen on 127\.0\.0\.1:\d+ within 2000 ms/);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  test('one that exits at once is reported with its exit code and output', async () => {
    const result = await runCli(['check', '--gateway', 'echo "bad flag" >&2; exit 3 # {upstream} {port}']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /exited with code 3 before listening on 127\.0\.0\.1:\d+\. Its output ended with:\nbad flag/,
    );
  });

  test('--only that matches no row is a usage error listing the rows, before anything starts', async () => {
    const result = await runCli(['check', '--gateway', 'sleep 30 # {upstream} {port}', '--only', 'nosuchprop']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--only "nosuchprop" matches no property. The properties are:');
    expect(result.stderr).toContain('  concurrent calls without cross-talk');
  });

  test('a template without placeholders is refused', async () => {
    const result = await runCli(['check', '--gateway', 'my-gateway']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('has neither {upstream} nor {port}');
  });
});
