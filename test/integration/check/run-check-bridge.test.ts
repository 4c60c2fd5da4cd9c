import { describe, expect, test } from 'vitest';
import { freePort } from '../../../src/check/gateway-process.js';
import { runGatewayCheck } from '../../../src/check/run-check.js';
import type { CheckReport } from '../../../src/check/vocabulary.js';
import { failing } from '../../support/check-through-fault.js';
import { type BridgeFault, type BridgeWay, startEraBridge } from '../../support/era-bridge.js';

/** The check through an in-repo era bridge in front of the reference upstream. */
async function checkBridge(way: BridgeWay, fault: BridgeFault, only: string[] = []): Promise<CheckReport> {
  const upstreamPort = await freePort();
  const bridge = await startEraBridge(`http://127.0.0.1:${upstreamPort}/mcp`, way, fault);
  const [clientEra, upstreamEra] =
    way === 'modern-to-legacy' ? (['modern', 'legacy'] as const) : (['legacy', 'modern'] as const);
  try {
    return await runGatewayCheck({
      gatewayUrl: bridge.url,
      upstreamPort,
      timeoutMs: 3000,
      clientEra,
      upstreamEra,
      only,
    });
  } finally {
    await bridge.close();
  }
}

const CLOSE = 'cancel by closing the stream (2026-07-28)';

/** The tasks extension's rows: n/a unless both legs speak 2026-07-28. */
const TASK_ROWS = [
  'tasks: resultType "task" passes through (2026-07-28)',
  'tasks: tasks/get and tasks/cancel reach the task with Mcp-Name (2026-07-28)',
  'tasks: statuses pass through (2026-07-28)',
  'tasks: no fabricated progress (2026-07-28)',
];

describe('mcp-golden check across eras, through a bridge', () => {
  test('client modern, upstream legacy: a faithful bridge passes; the hang-up becomes notifications/cancelled with the upstream id', async () => {
    // The whole battery: the 2025 rows run as a modern client too, and only what has no meaning is n/a.
    const report = await checkBridge('modern-to-legacy', 'none');
    expect(failing(report)).toEqual([]);
    expect(report.results.filter((r) => r.verdict === 'n/a').map((r) => r.property)).toEqual([
      'Last-Event-ID resume',
      'progress on the call stream (GET stream open)',
      "Last-Event-ID never replays another session's events",
      'session affinity across two upstream replicas',
      'Mcp-* headers reach the upstream (2026-07-28)',
      ...TASK_ROWS,
      'input_required rounds pass through (2026-07-28)',
      'idle budget: a silent call gets its result (2026-07-28)',
    ]);
    const close = report.results.find((r) => r.property === CLOSE);
    expect(close?.verdict).toBe('pass');
    expect(close?.evidence).toMatch(
      /gateway→upstream: id 10\d\d: cancelled after \d+ steps.*notifications\/cancelled with its own request id/,
    );
    expect(report.results.find((r) => r.property.startsWith('Mcp-*'))?.verdict).toBe('n/a');
    expect(report.results.find((r) => r.property.startsWith('re-issue'))?.verdict).toBe('pass');
  }, 60_000);

  test.each(['ignore-hang-up', 'cancel-client-id'] as const)(
    'client modern, upstream legacy: a bridge with %s fails the close row on the upstream leg',
    async (fault) => {
      const report = await checkBridge('modern-to-legacy', fault, [CLOSE]);
      const close = report.results.find((r) => r.property === CLOSE);
      expect(close?.verdict).toBe('fail');
      expect(close?.evidence).toMatch(
        /^gateway→upstream: id 10\d\d: result after 20 steps.*the cancel never reached the upstream/,
      );
    },
    60_000,
  );

  test('client legacy, upstream modern: notifications/cancelled becomes a closed upstream stream; Mcp-* headers are added', async () => {
    const report = await checkBridge('legacy-to-modern', 'none');
    expect(failing(report)).toEqual([]);
    // The bridge sends no SSE event ids (so offers no resumption), and a 2025 client re-issues nothing.
    expect(report.results.filter((r) => r.verdict === 'n/a').map((r) => r.property)).toEqual([
      'Last-Event-ID resume',
      "Last-Event-ID never replays another session's events",
      'session affinity across two upstream replicas',
      're-issue after a drop (2026-07-28)',
      ...TASK_ROWS,
      'input_required rounds pass through (2026-07-28)',
    ]);
    const close = report.results.find((r) => r.property === CLOSE);
    expect(close?.evidence).toMatch(
      /the client sent notifications\/cancelled.*\(the client closed the stream\).*the upstream saw its stream closed/,
    );
    expect(report.results.find((r) => r.property.startsWith('Mcp-*'))?.verdict).toBe('pass');
    expect(report.results.find((r) => r.property.startsWith('re-issue'))?.verdict).toBe('n/a');
  }, 60_000);

  test('client legacy, upstream modern: a bridge that drops notifications/cancelled fails the close row on the upstream leg', async () => {
    const report = await checkBridge('legacy-to-modern', 'ignore-cancel', [CLOSE]);
    const close = report.results.find((r) => r.property === CLOSE);
    expect(close?.verdict).toBe('fail');
    expect(close?.evidence).toMatch(
      /gateway→upstream: id 1: result after 20 steps, 20 progress sent: the cancel never reached the upstream/,
    );
  }, 60_000);

  test('client legacy, upstream modern: a bridge that leaves out Mcp-Name fails the headers row on the upstream leg', async () => {
    const report = await checkBridge('legacy-to-modern', 'drop-mcp-name', ['Mcp-*']);
    const headers = report.results.find((r) => r.property.startsWith('Mcp-*'));
    expect(headers?.verdict).toBe('fail');
    expect(headers?.evidence).toMatch(/^gateway→upstream: no call tagged .* reached the tool/);
    expect(headers?.evidence).toMatch(/-32020/);
  }, 60_000);

  test('client legacy, upstream modern: a bridge that sends no Mcp-Param-* headers fails the headers row, naming mcp-param-tag, and only that row', async () => {
    const report = await checkBridge('legacy-to-modern', 'no-param-headers', ['Mcp-*', 'multibyte']);
    const headers = report.results.find((r) => r.property.startsWith('Mcp-*'));
    expect(headers?.verdict).toBe('fail');
    // The check's upstream records Mcp-Param-* (serve's own default refuses the call, -32020): the
    // headers row names the fault, and the rows whose tool takes a tag are judged on their own duty.
    expect(headers?.evidence).toMatch(/^gateway→upstream: mcp-param-tag missing, the body says "check-headers-.*-é🚀"/);
    expect(report.results.filter((r) => r.verdict === 'fail').map((r) => r.property)).toEqual([headers?.property]);
  }, 60_000);
});
