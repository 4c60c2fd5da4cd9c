import { describe, expect, test } from 'vitest';
import { runCli } from '../../support/cli.js';

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
