import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { freePort } from '../../../src/check/gateway-process.js';
import { runInProcess } from '../../support/in-process-cli.js';

const support = (name: string): string => fileURLToPath(new URL(`../../support/${name}`, import.meta.url));

describe('gateways that misbehave as processes', () => {
  test('one that never listens is a setup error (exit 3, no rows), bounded by the timeout', async () => {
    const started = Date.now();
    const result = await runInProcess(['check', '--gateway', 'sleep 30 # {upstream} {port}', '--timeout', '2000']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /did not start: the gateway "sleep 30 # http:\S+ \d+" did not listen on 127\.0\.0\.1:\d+ within 2000 ms/,
    );
    expect(result.stdout).toBe('');
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  test('one that exits at once is a setup error: exit 3, the command as run, its exit code and output, no rows', async () => {
    const result = await runInProcess(['check', '--gateway', 'echo "bad flag" >&2; exit 3 # {upstream} {port}']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /^\[mcp-golden\] The gateway did not start: the gateway "echo "bad flag" >&2; exit 3 # http:\/\/127\.0\.0\.1:\d+\/mcp \d+" exited with code 3 before listening on 127\.0\.0\.1:\d+\. Its output ended with:\nbad flag\nNo row was run: this is a setup error, not a verdict on the gateway\. Likely fix: /,
    );
    expect(result.stderr.match(/\[mcp-golden\]/g)).toHaveLength(1);
    expect(result.stderr).not.toContain('--target');
    expect(result.stdout).toBe('');
  });

  test('a stdio upstream left unquoted: the hint says to quote {upstream}', async () => {
    // A gateway that takes the upstream command as one argument and exits when given several words.
    const result = await runInProcess([
      'check',
      '--upstream-transport',
      'stdio',
      '--gateway',
      'gw() { test $# -eq 1 || { echo "usage: gw <command>, got $# arguments" >&2; exit 2; }; sleep 30; }; gw {upstream} # {port}',
      '--timeout',
      '3000',
    ]);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('exited with code 2 before listening');
    expect(result.stderr).toContain('quote it, e.g. --gateway \'supergateway --stdio "{upstream}"');
    expect(result.stderr).not.toContain('--target');
  });

  test('a stdio-client gateway that exits at once is a setup error with its exit code and output', async () => {
    const result = await runInProcess([
      'check',
      '--client-transport',
      'stdio',
      '--gateway',
      'echo "no such upstream" >&2; exit 4 # {upstream} {port}',
      '--timeout',
      '3000',
    ]);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('The gateway did not take a first call over stdio');
    expect(result.stderr).toContain('exited with code 4');
    expect(result.stderr).toContain('no such upstream');
    expect(result.stderr).toContain('No row was run');
    expect(result.stderr).not.toContain('--target');
  });

  test('a refused --gateway-url is a setup error naming the URL and the fix', async () => {
    const port = await freePort();
    const upstreamPort = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const result = await runInProcess(['check', '--gateway-url', url, '--upstream-port', String(upstreamPort)]);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `The first call to --gateway-url ${url} failed: Cannot connect to ${url}: the connection was refused`,
    );
    expect(result.stderr).toContain('start the gateway first, or fix the host, port and path in --gateway-url');
    expect(result.stderr).not.toContain('--target');
  });

  test('a gateway that listens, then crashes before the first row is a setup error with its exit code and output', async () => {
    const gateway = `'${process.execPath}' '${support('silent-gateway.mjs')}' {port} --exit-on-connect # {upstream}`;
    const result = await runInProcess(['check', '--gateway', gateway, '--timeout', '3000']);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/started listening, then exited with code 5 before the first row/);
    expect(result.stderr).toContain('panic: first connection');
  });

  test('--only that matches no row is a usage error listing the rows, before anything starts', async () => {
    const result = await runInProcess(['check', '--gateway', 'sleep 30 # {upstream} {port}', '--only', 'nosuchprop']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--only "nosuchprop" matches no property. The properties are:');
    expect(result.stderr).toContain('  concurrent calls without cross-talk');
  });

  test('a template without placeholders is refused', async () => {
    const result = await runInProcess(['check', '--gateway', 'my-gateway']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('has neither {upstream} nor {port}');
  });

  test('a template without {port} is refused before anything starts when the check connects over HTTP', async () => {
    const result = await runInProcess(['check', '--gateway', 'my-gateway --upstream {upstream}']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('has no {port}. The check picks a free port and connects there over HTTP');
    expect(result.stdout).toBe('');
  });
});
