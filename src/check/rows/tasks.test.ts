import { describe, expect, test } from 'vitest';
import { checkThrough, failing } from '../../../test/support/check-through-fault.js';
import { startTaskFaultProxy, type TaskFault } from '../../../test/support/task-fault-proxy.js';
import { freePort } from '../gateway-process.js';
import { runGatewayCheck } from '../run-check.js';
import type { CheckReport } from '../vocabulary.js';

const TASK_ROWS = [
  'tasks: resultType "task" passes through (2026-07-28)',
  'tasks: tasks/get and tasks/cancel reach the task with Mcp-Name (2026-07-28)',
  'tasks: statuses pass through (2026-07-28)',
  'tasks: no fabricated progress (2026-07-28)',
];

const MODERN = { clientEra: 'modern', upstreamEra: 'modern', only: ['tasks:'] } as const;

async function checkThroughTaskFault(fault: TaskFault): Promise<CheckReport> {
  const upstreamPort = await freePort();
  const proxy = await startTaskFaultProxy(`http://127.0.0.1:${upstreamPort}/mcp`, fault);
  try {
    return await runGatewayCheck({ gatewayUrl: proxy.url, upstreamPort, timeoutMs: 3000, ...MODERN });
  } finally {
    await proxy.close();
  }
}

const row = (report: CheckReport, index: number) => report.results.find((r) => r.property === TASK_ROWS[index]);

describe('mcp-golden check: the tasks extension rows (2026-07-28)', () => {
  test('through a faithful proxy every task row passes, with evidence from both legs', async () => {
    const report = await checkThrough('none', MODERN);
    expect(report.results.map((r) => [r.property, r.verdict])).toEqual(TASK_ROWS.map((name) => [name, 'pass']));
    expect(row(report, 0)?.evidence).toMatch(
      /^client→gateway: resultType "task" \(task [0-9a-f-]{36}\), then completed with the result after \d+ tasks\/get; gateway→upstream: task [0-9a-f-]{36}: result after 3 steps, 0 progress sent/,
    );
    expect(row(report, 1)?.evidence).toMatch(/sent tasks\/get, tasks\/cancel, .*the task ended cancelled/);
    expect(row(report, 1)?.evidence).toMatch(
      /gateway→upstream: task .*: cancelled after \d+ steps.*tasks\/cancel Mcp-Name "/,
    );
    expect(row(report, 2)?.evidence).toMatch(/statuses working, .*completed, as the upstream answered them/);
    // The in-repo proxy without faults passes too.
    const plain = await checkThroughTaskFault('none');
    expect(failing(plain)).toEqual([]);
  }, 120_000);

  const FAULTS: [TaskFault, number, RegExp][] = [
    [
      'complete-only',
      0,
      /^client→gateway: the call was answered resultType "complete", expected "task" \(the upstream created task [0-9a-f-]{36}\); gateway→upstream: task/,
    ],
    [
      'replica-round-robin',
      1,
      /^client→gateway: tasks\/get \(Mcp-Name "[0-9a-f-]{36}"\) got error -32602: .*Task not found.*; gateway→upstream: 0 of the client's 1 tasks\/\* requests reached the task/,
    ],
    [
      'cache-task-status',
      2,
      /^client→gateway: the task did not end as the client saw it: .*still "working".*\(the upstream answered 1 tasks\/get: working\); gateway→upstream: task .*: result after 3 steps/,
    ],
    [
      'progress-on-task',
      3,
      /^client→gateway: 1 notifications\/progress arrived for the task call .*expected none; gateway→upstream: task .*0 progress sent/,
    ],
  ];
  test.each(FAULTS)(
    '%s fails its task row with evidence naming the leg',
    async (fault, index, evidence) => {
      const report = await checkThroughTaskFault(fault);
      const judged = row(report, index);
      expect(judged?.verdict).toBe('fail');
      expect(judged?.evidence).toMatch(evidence);
      expect(report.pass).toBe(false);
    },
    60_000,
  );

  test('a gateway that hands out its own task ids and maps them back passes every task row, as "reach the task" judges ids', async () => {
    const report = await checkThroughTaskFault('map-task-ids');
    expect(report.results.map((r) => [r.property, r.verdict])).toEqual(TASK_ROWS.map((name) => [name, 'pass']));
    expect(row(report, 0)?.evidence).toMatch(/^client→gateway: resultType "task" \(task gw-[0-9a-f-]{36}\)/);
  }, 60_000);

  test('a gateway that turns a task into a plain result passes no task row: the task was not passed through', async () => {
    const report = await checkThroughTaskFault('task-to-result');
    expect(report.results.map((r) => r.verdict)).toEqual(['fail', 'fail', 'fail', 'fail']);
    expect(row(report, 3)?.evidence).toMatch(
      /^client→gateway: the gateway did not pass the task through: the call was answered without resultType "task"; gateway→upstream: task [0-9a-f-]{36}: result after 3 steps/,
    );
  }, 60_000);

  test('outside modern-to-modern the task rows are n/a, saying why', async () => {
    const report = await checkThrough('none', { clientEra: 'legacy', upstreamEra: 'legacy', only: ['tasks:'] });
    expect(report.results.map((r) => r.verdict)).toEqual(['n/a', 'n/a', 'n/a', 'n/a']);
    expect(report.results[0]?.evidence).toMatch(/2025-11-25 client declares no tasks extension/);
  }, 60_000);
});
