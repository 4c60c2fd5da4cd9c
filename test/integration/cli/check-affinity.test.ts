import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { runInProcess } from '../../support/in-process-cli.js';

// Two upstream replicas behind one gateway: {upstream} and {upstream2} in its command.
const GATEWAY = fileURLToPath(new URL('../../support/replica-gateway.mjs', import.meta.url));
const ROW = 'session affinity across two upstream replicas';

describe('check with two upstream replicas ({upstream2})', () => {
  test('a gateway that pins sessions passes the affinity row; one that round-robins fails it, naming the 404', async () => {
    const pinned = await runInProcess(
      ['check', '--gateway', `node ${GATEWAY} {upstream} {upstream2} {port} pin`, '--only', 'session affinity'],
      { timeoutMs: 60_000 },
    );
    expect(pinned.stdout).toMatch(new RegExp(`${ROW}\\s+\\| pass`));
    expect(pinned.code).toBe(0);
    const spread = await runInProcess(
      ['check', '--gateway', `node ${GATEWAY} {upstream} {upstream2} {port} round-robin`, '--only', 'session affinity'],
      { timeoutMs: 60_000 },
    );
    expect(spread.code).toBe(1);
    expect(spread.stdout).toMatch(new RegExp(`${ROW}\\s+\\| FAIL`));
    expect(spread.stdout).toMatch(/HTTP 404/);
  }, 120_000);

  test('a gateway that sends every session to one replica does not exercise affinity: n/a with the reason, not pass', async () => {
    const one = await runInProcess(
      ['check', '--gateway', `node ${GATEWAY} {upstream} {upstream2} {port} one`, '--only', 'session affinity'],
      { timeoutMs: 60_000 },
    );
    expect(one.stdout).toMatch(
      new RegExp(`${ROW}\\s+\\| n/a\\s+\\| affinity was not exercised: all 4 sessions landed on`),
    );
    expect(one.code).toBe(0);
  }, 60_000);

  test('without {upstream2} the row is n/a and says how to enable it', async () => {
    const result = await runInProcess(
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
      const result = await runInProcess(['check', ...args]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe('');
    },
    30_000,
  );
});

interface Row {
  readonly property: string;
  readonly verdict: string;
  readonly evidence: string;
}

/** Runs the check's 2026-07-28 rows through the replica gateway in `mode`; the exit code and the JSON report's rows. */
async function modernCheck(mode: string, only: readonly string[]): Promise<{ code: number | null; rows: Row[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-golden-check-affinity-'));
  try {
    const run = await runInProcess(
      [
        'check',
        ...['--client-era', 'modern', '--upstream-era', 'modern'],
        ...['--gateway', `node ${GATEWAY} {upstream} {upstream2} {port} ${mode}`],
        ...only.flatMap((o) => ['--only', o]),
        ...['--json', join(dir, 'check.json')],
      ],
      { timeoutMs: 60_000 },
    );
    const rows =
      run.code === 0 || run.code === 1 ? JSON.parse(await readFile(join(dir, 'check.json'), 'utf8')).results : [];
    return { code: run.code, rows };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const REACH = 'tasks: tasks/get and tasks/cancel reach the task with Mcp-Name (2026-07-28)';

// 2026-07-28 has no sessions: a balancer pins tasks/* by Mcp-Name: <taskId> to the replica that created the task.
describe('check with two upstream replicas, 2026-07-28 task ids', () => {
  test('a gateway that pins task ids passes every task row; the session row says the task rows judge 2026', async () => {
    const { code, rows } = await modernCheck('pin', ['tasks', 'session affinity']);
    expect(code).toBe(0);
    const tasks = rows.filter((r) => r.property.startsWith('tasks:'));
    expect(tasks.map((r) => `${r.property}: ${r.verdict}`)).toEqual(tasks.map((r) => `${r.property}: pass`));
    expect(tasks).toHaveLength(4);
    const session = rows.find((r) => r.property === ROW);
    expect(session?.verdict).toBe('n/a');
    expect(session?.evidence).toMatch(/judged by the task rows, "tasks: tasks\/get and tasks\/cancel reach the task/);
  }, 90_000);

  // One row alone runs in a fixed order (the check's preflight, then discover, tools/list, tools/call): the
  // call that creates the task is the gateway's sixth unpinned request, so it lands on replica 2.
  test('pinned: the task created on replica 2 is reached there', async () => {
    const { code, rows } = await modernCheck('pin', ['reach the task']);
    expect(code).toBe(0);
    expect(rows.map((r) => [r.property, r.verdict])).toEqual([[REACH, 'pass']]);
    expect(rows[0]?.evidence).toMatch(/on replica 2 of 2: cancelled/);
  }, 90_000);

  test('round-robin fails the reach row, naming the leg and the replica that did not hold the task', async () => {
    const { code, rows } = await modernCheck('round-robin', ['reach the task']);
    expect(code).toBe(1);
    expect(rows.map((r) => [r.property, r.verdict])).toEqual([[REACH, 'fail']]);
    const evidence = rows[0]?.evidence ?? '';
    expect(evidence).toMatch(
      /client→gateway: tasks\/get \(Mcp-Name "[^"]+"\) got error -32602: "Failed to retrieve task: Task not found/,
    );
    expect(evidence).toMatch(
      /gateway→upstream: 0 of the client's 1 tasks\/\* requests reached the task on replica 2; the other 1 went to replica 1, which does not hold it and answered "Task not found"/,
    );
  }, 90_000);
});
