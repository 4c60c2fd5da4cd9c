import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { runCli } from '../../support/cli.js';

// Two upstream replicas behind one gateway: {upstream} and {upstream2} in its command.
const GATEWAY = fileURLToPath(new URL('../../support/replica-gateway.mjs', import.meta.url));
const ROW = 'session affinity across two upstream replicas';

describe('check with two upstream replicas ({upstream2})', () => {
  test('a gateway that pins sessions passes the affinity row; one that round-robins fails it, naming the 404', async () => {
    const pinned = await runCli(
      ['check', '--gateway', `node ${GATEWAY} {upstream} {upstream2} {port} pin`, '--only', 'session affinity'],
      { timeoutMs: 60_000 },
    );
    expect(pinned.stdout).toMatch(new RegExp(`${ROW}\\s+\\| pass`));
    expect(pinned.code).toBe(0);
    const spread = await runCli(
      ['check', '--gateway', `node ${GATEWAY} {upstream} {upstream2} {port} round-robin`, '--only', 'session affinity'],
      { timeoutMs: 60_000 },
    );
    expect(spread.code).toBe(1);
    expect(spread.stdout).toMatch(new RegExp(`${ROW}\\s+\\| FAIL`));
    expect(spread.stdout).toMatch(/HTTP 404/);
  }, 120_000);

  test('without {upstream2} the row is n/a and says how to enable it', async () => {
    const result = await runCli(
      ['check', '--gateway', `node ${GATEWAY} {upstream} {upstream} {port} pin`, '--only', 'session affinity'],
      { timeoutMs: 60_000 },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`${ROW}\\s+\\| n/a\\s+\\| needs two upstream replicas: name both`));
  }, 60_000);

  test.each([
    [['--gateway', 'gw {upstream} {port}', '--upstream2-port', '4000'], /--upstream2-port goes with --gateway-url/],
    [
      ['--gateway', 'gw {upstream} {upstream2} {port}', '--upstream-transport', 'stdio'],
      /\{upstream2\} \(or --upstream2-port\) starts a second upstream replica over HTTP/,
    ],
  ])(
    '%j is a usage error',
    async (args, message) => {
      const result = await runCli(['check', ...args]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe('');
    },
    30_000,
  );
});
