import { describe, expect, test } from 'vitest';
import { ALL_PROPERTIES, checkThrough, failing } from '../../support/check-through-fault.js';
import type { Fault } from '../../support/fault-proxy.js';

const ERA_ROWS = [
  'cancel by closing the stream (2026-07-28)',
  'Mcp-* headers reach the upstream (2026-07-28)',
  're-issue after a drop (2026-07-28)',
  // The tasks extension's rows (task-rows.ts, judged in task-rows.test.ts).
  'tasks: resultType "task" passes through (2026-07-28)',
  'tasks: tasks/get and tasks/cancel reach the task with Mcp-Name (2026-07-28)',
  'tasks: statuses pass through (2026-07-28)',
  'tasks: no fabricated progress (2026-07-28)',
  'input_required rounds pass through (2026-07-28)',
  'idle budget: a silent call gets its result (2026-07-28)',
];

describe('mcp-golden check in the 2026-07-28 era', () => {
  test('through a faithful proxy, client modern and upstream modern: every row passes or is n/a with the reason', async () => {
    const report = await checkThrough('none', { clientEra: 'modern', upstreamEra: 'modern' });
    expect(report.results.map((r) => r.property)).toEqual([...ALL_PROPERTIES, ...ERA_ROWS]);
    expect(failing(report)).toEqual([]);
    expect(report.pass).toBe(true);
    expect(report.eras).toEqual({ client: 'modern', upstream: 'modern' });
    for (const row of ERA_ROWS) expect(report.results.find((r) => r.property === row)?.verdict).toBe('pass');
    // Only the rows without meaning in the era are n/a; the session rows run on a modern session.
    expect(report.results.filter((r) => r.verdict === 'n/a').map((r) => r.property)).toEqual([
      'Last-Event-ID resume',
      'progress on the call stream (GET stream open)',
      "Last-Event-ID never replays another session's events",
      'session affinity across two upstream replicas',
    ]);
    const resume = report.results.find((r) => r.property === 'Last-Event-ID resume');
    expect(resume).toMatchObject({ verdict: 'n/a', evidence: expect.stringMatching(/no Last-Event-ID resumption/) });
    const close = report.results.find((r) => r.property === ERA_ROWS[0]);
    // Both legs: the client closed, the upstream saw its own stream close and stopped early.
    expect(close?.evidence).toMatch(/^client→gateway: the client closed its stream after progress 2; 0 message/);
    expect(close?.evidence).toMatch(
      /gateway→upstream: id 1: cancelled after \d+ steps, .*\(the client closed the stream\)/,
    );
    const headers = report.results.find((r) => r.property === ERA_ROWS[1]);
    expect(headers?.evidence).toMatch(
      /gateway→upstream: received .*mcp-method: tools\/call, mcp-name: progress_tight, mcp-param-tag: =\?base64\?[A-Za-z0-9+/=]+\?=, agreeing/,
    );
    const reissue = report.results.find((r) => r.property === ERA_ROWS[2]);
    expect(reissue?.evidence).toMatch(
      /re-issued as id \d+: progress 1, 2, 3, 4, 5 then the result under that id; gateway→upstream: 2 call/,
    );
  }, 120_000);

  const FAULTS: [Fault, string, RegExp][] = [
    // The upstream never learns of the hang-up: its call runs to the end.
    [
      'ignore-hang-up',
      ERA_ROWS[0] as string,
      /^gateway→upstream: id 1: result after 20 steps.*the cancel never reached the upstream/,
    ],
    // The upstream refuses the request (-32020) before the tool runs: no audit row, the client sees why.
    [
      'drop-mcp-name',
      ERA_ROWS[1] as string,
      /^gateway→upstream: no call tagged .* reached the tool.*client→gateway: the call was refused: .*-32020.*Mcp-Name header is absent/,
    ],
    [
      'stale-on-reissue',
      ERA_ROWS[2] as string,
      // The dropped stream's 1, 2 (and a 3 when it arrives before the drop takes effect on a loaded machine)
      // come first, then the re-issued call's own 1..5.
      /^client→gateway: after the re-issue progress arrived as \[1,2,(?:3,)?1,2,3,4,5\].*stale frames/,
    ],
  ];
  test.each(FAULTS)(
    '%s fails %s with evidence naming the leg',
    async (fault, row, evidence) => {
      const report = await checkThrough(fault, { clientEra: 'modern', upstreamEra: 'modern', only: ['2026-07-28'] });
      const judged = report.results.find((r) => r.property === row);
      expect(judged?.verdict).toBe('fail');
      expect(judged?.evidence).toMatch(evidence);
      expect(report.pass).toBe(false);
      if (fault !== 'drop-mcp-name') {
        // The fault breaks one duty only: the other rows still pass.
        expect(failing(report)).toEqual([row]);
      }
    },
    60_000,
  );

  test('client legacy and upstream legacy: no era rows, as before', async () => {
    const report = await checkThrough('none', { only: ['blocks'] });
    expect(report.results.map((r) => r.property)).toEqual(['blocks: count and order']);
    expect(report.eras).toBeUndefined();
    // Asked for by name (as --eras all --only 2026-07-28 does), they are listed n/a with the reason.
    const asked = await checkThrough('none', { only: ['2026-07-28'] });
    expect(asked.results.map((r) => [r.property, r.verdict])).toEqual(ERA_ROWS.map((row) => [row, 'n/a']));
    expect(asked.results[0]?.evidence).toMatch(/both legs speak 2025-11-25/);
    expect(asked.pass).toBe(true);
  }, 60_000);

  test('a plain proxy is no bridge: one finding with what was sent and what came back, its rows n/a; a failure only with requireBridge', async () => {
    const options = { clientEra: 'legacy', upstreamEra: 'modern', only: ['blocks', '2026-07-28'] } as const;
    const report = await checkThrough('none', options);
    expect(report.noBridge?.evidence).toMatch(
      /^does not bridge 2025-11-25 to 2026-07-28: the client sent initialize \(2025-11-25\); it came back HTTP 400 -32022 "Unsupported protocol version/,
    );
    expect(new Set(report.results.map((r) => r.verdict))).toEqual(new Set(['n/a']));
    expect(report.pass).toBe(true);
    const modernClient = await checkThrough('none', { clientEra: 'modern', upstreamEra: 'legacy', only: ['blocks'] });
    expect(modernClient.noBridge?.evidence).toMatch(
      /^does not bridge 2026-07-28 to 2025-11-25: the client sent server\/discover .*; it came back HTTP 400 -32000 "Bad Request: Server not initialized"/,
    );
    const required = await checkThrough('none', { ...options, requireBridge: true });
    expect(required.pass).toBe(false);
  }, 60_000);

  test('a proxy that does not propagate a hang-up also fails the cancellation rows, whose modern client cancels by closing', async () => {
    const report = await checkThrough('ignore-hang-up', {
      clientEra: 'modern',
      upstreamEra: 'modern',
      only: ['cancellation', 'blocks'],
    });
    expect(failing(report)).toEqual([
      'cancellation (string id, after progress 2)',
      'cancellation (large numeric id, after progress 2)',
      'cancellation (no progress needed, after 300 ms)',
    ]);
    for (const row of report.results.filter((r) => r.verdict === 'fail')) {
      expect(row.evidence).toMatch(
        /^client→gateway: sent the close of its stream \(2026-07-28\) \d+ ms into the call\. gateway→upstream: .*the cancel never reached it/,
      );
    }
  }, 60_000);

  test.each(['buffer', 'drop-progress'] as const)(
    'a proxy with %s fails the progress rows in the modern era too',
    async (fault) => {
      const report = await checkThrough(fault, {
        clientEra: 'modern',
        upstreamEra: 'modern',
        only: ['progress streams live (50 ms', 'blocks'],
      });
      expect(failing(report)).toEqual(['progress streams live (50 ms steps)']);
    },
    60_000,
  );

  test('a proxy that drops the SSE event: field fails its row in the modern era too, naming the client leg', async () => {
    const row = 'SSE events keep their event: field';
    const report = await checkThrough('drop-event-field', { clientEra: 'modern', upstreamEra: 'modern', only: [row] });
    expect(failing(report)).toEqual([row]);
    expect(report.results[0]?.evidence).toMatch(
      /^client→gateway: \d+ of \d+ SSE events arrived without an event: field/,
    );
  }, 60_000);

  test('a proxy that compresses SSE with br for a modern client and holds it fails the spacing rows', async () => {
    const report = await checkThrough('compress-hold', {
      clientEra: 'modern',
      upstreamEra: 'modern',
      only: ['progress streams live'],
    });
    expect(failing(report)).toEqual(['progress streams live (50 ms steps)', 'progress streams live (500 ms steps)']);
  }, 60_000);
});
