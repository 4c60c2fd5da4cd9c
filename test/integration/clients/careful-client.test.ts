import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type StartedInProcess, startInProcess } from '../../support/in-process-cli.js';
import { CLIENTS, linesOf, type PlannedCall, runClient } from '../../support/run-client.js';

// The careful client (test/support/careful-client.mjs), spawned as the check spawns a client, against
// the reference server and against replays that cut and reframe their streams; each framing fault is
// shown to break what the careful client gets right (the mutation its test must catch).

const ERAS = ['2025-11-25', '2026-07-28'] as const;
const CHATTY = [
  'first block: short',
  'second block: a slightly longer string with multiple words',
  'third block: numbers 1 2 3 4 5',
  'fourth block: unicode; café résumé naïve',
].join('\n');
const PROGRESS_10 = '{"steps":10,"notified":true,"done":true}';

interface AuditRow {
  readonly tool: string;
  readonly progressToken: unknown;
  readonly cancelled: boolean;
  readonly cancelReason: string | null;
  readonly stepsCompleted: number;
}

const withFaults = (...faults: string[]): string[] => [...CLIENTS.careful, ...faults.flatMap((f) => ['--fault', f])];

describe('against the reference server', { timeout: 60_000 }, () => {
  let server: StartedInProcess;
  beforeAll(async () => {
    server = await startInProcess(['serve', '--check-tools', '--port', '0']);
  });
  afterAll(async () => {
    await server.stop();
  });

  test.each(ERAS)('%s: progress, blocks, a cancel the server sees, an error, a 3.2 MB result', async (era) => {
    const calls: PlannedCall[] = [
      { name: 'progress', arguments: { steps: 3, step_ms: 20 }, progress: true },
      { name: 'chatty', arguments: {} },
      { name: 'progress', arguments: { steps: 100, step_ms: 100 }, progress: true, abortAfterMs: 350 },
      { name: 'no_such_tool', arguments: {} },
      { name: 'long_output', arguments: { blocks: 50, chars: 65536 } },
      { name: 'audit_log', arguments: {} },
    ];
    const run = await runClient(CLIENTS.careful, server.firstLine, { era, calls });
    expect(run.code).toBe(0);
    expect(linesOf(run, 0)).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
      { result: '{"steps":3,"notified":true,"done":true}' },
    ]);
    expect(linesOf(run, 1)).toEqual([{ result: CHATTY }]);
    expect(linesOf(run, 2).at(-1)).toEqual({ aborted: true });
    expect(linesOf(run, 3)).toEqual([{ error: expect.stringContaining('no_such_tool') }]);
    const large = linesOf(run, 4)[0]?.result ?? '';
    expect(large.length).toBe(50 * 65536 + 49);
    expect(large.split('\n')[49]?.startsWith('[block 49] abcdefghij')).toBe(true);
    const audit = JSON.parse(linesOf(run, 5)[0]?.result ?? '{}') as { entries: AuditRow[] };
    const cancelled = audit.entries.filter((row) => row.tool === 'progress').at(-1);
    expect(cancelled).toMatchObject({ cancelled: true, progressToken: expect.stringMatching(/^careful-/) });
    expect(cancelled?.cancelReason).toBe(era === '2025-11-25' ? 'aborted' : 'the client closed the stream');
    expect(cancelled?.stepsCompleted).toBeLessThan(10);
  });

  test.each(ERAS)('%s: concurrent calls send distinct tokens and each gets its own progress', async (era) => {
    const calls: PlannedCall[] = [
      { name: 'progress', arguments: { steps: 4, step_ms: 40 }, progress: true },
      { name: 'progress', arguments: { steps: 2, step_ms: 60 }, progress: true },
    ];
    const run = await runClient(CLIENTS.careful, server.firstLine, { era, calls, concurrent: true });
    expect(linesOf(run, 0).map((l) => l.total ?? l.result)).toEqual([
      4,
      4,
      4,
      4,
      '{"steps":4,"notified":true,"done":true}',
    ]);
    expect(linesOf(run, 1).map((l) => l.total ?? l.result)).toEqual([2, 2, '{"steps":2,"notified":true,"done":true}']);
    // The fault: one token for both, so one call's progress is reported as the other's.
    const shared = await runClient(withFaults('shared-progress-token'), server.firstLine, {
      era,
      calls,
      concurrent: true,
    });
    expect(
      linesOf(shared, 0).filter((l) => l.total === 2).length + linesOf(shared, 1).filter((l) => l.total === 4).length,
    ).toBeGreaterThan(0);
  });

  test('2026-07-28: input_required is answered and its requestState echoed as sent, on a new request id', async () => {
    const run = await runClient(CLIENTS.careful, server.firstLine, {
      era: '2026-07-28',
      calls: [{ name: 'input_round', arguments: {} }],
    });
    expect(JSON.parse(linesOf(run, 0)[0]?.result ?? 'null')).toEqual({
      inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
      requestState: 'round-1 é🚀 "quoted" \\ / + = \u2028 end',
    });
  });

  test.each(ERAS)('%s: no-cancel leaves the aborted call running at the server', async (era) => {
    const calls: PlannedCall[] = [
      { name: 'progress', arguments: { steps: 12, step_ms: 100 }, progress: true, abortAfterMs: 250 },
      { name: 'audit_log', arguments: {} },
    ];
    const run = await runClient(withFaults('no-cancel'), server.firstLine, { era, calls });
    expect(linesOf(run, 0).at(-1)).toEqual({ aborted: true });
    const audit = JSON.parse(linesOf(run, 1)[0]?.result ?? '{}') as { entries: AuditRow[] };
    expect(audit.entries.filter((row) => row.tool === 'progress').at(-1)?.cancelled).toBe(false);
  });
});

describe('against replays that cut and reframe their streams', { timeout: 60_000 }, () => {
  const calls: PlannedCall[] = [
    { name: 'chatty', arguments: {} },
    { name: 'progress', arguments: { steps: 10, step_ms: 100 }, progress: true },
  ];
  const replays = new Map<string, StartedInProcess>();
  const options = {
    crlf: ['--crlf'],
    'split-utf8': ['--split-utf8', '--split-events', '3'],
    comments: ['--keep-alive-comments', '--priming'],
  } as const;
  beforeAll(async () => {
    for (const [name, flags] of Object.entries(options)) {
      replays.set(name, await startInProcess(['replay', 'goldens', '--port', '0', '--pace', 'instant', ...flags]));
    }
  });
  afterAll(async () => {
    for (const replay of replays.values()) await replay.stop();
  });
  const url = (name: keyof typeof options): string => replays.get(name)?.firstLine ?? '';

  describe.each(ERAS)('%s', (era) => {
    test.each(Object.keys(options) as (keyof typeof options)[])('--%s: every call as recorded', async (name) => {
      const run = await runClient(CLIENTS.careful, url(name), { era, calls });
      expect(run.code).toBe(0);
      expect(linesOf(run, 0)).toEqual([{ result: CHATTY }]);
      expect(linesOf(run, 1)).toEqual([
        ...Array.from({ length: 10 }, (_, i) => ({ progress: i + 1, total: 10 })),
        { result: PROGRESS_10 },
      ]);
    });

    // The 2026-07-28 replay writes its SSE without the chunking options today (a crlf-blind client
    // reads it), so the faults are shown against the 2025-11-25 replay only.
    test.runIf(era === '2025-11-25')(
      'crlf-blind never reads a CRLF stream; comments-as-data errs on a comment',
      async () => {
        const progress = calls.slice(1);
        const blind = await runClient(withFaults('crlf-blind'), url('crlf'), { era, calls: progress, timeoutMs: 3000 });
        expect(blind.lines.filter((line) => line.result !== undefined)).toEqual([]);
        const comments = await runClient(withFaults('comments-as-data'), url('comments'), { era, calls: progress });
        expect(linesOf(comments, 0)).toEqual([{ error: expect.stringContaining('not JSON') }]);
      },
    );
  });
});

// A 2025 golden answered in 2026-07-28 comes as one JSON body when it has no progress: only the 2025
// replay streams chatty's multi-byte text as SSE.
test('utf8-per-chunk garbles a character cut across reads (2025-11-25)', { timeout: 60_000 }, async () => {
  const replay = await startInProcess(['replay', 'goldens', '--port', '0', '--pace', 'instant', '--split-utf8']);
  try {
    const calls = [{ name: 'chatty', arguments: {} }];
    const careful = await runClient(CLIENTS.careful, replay.firstLine, { era: '2025-11-25', calls });
    expect(linesOf(careful, 0)).toEqual([{ result: CHATTY }]);
    const garbled = await runClient(withFaults('utf8-per-chunk'), replay.firstLine, { era: '2025-11-25', calls });
    expect(linesOf(garbled, 0)[0]?.result).toContain('\uFFFD');
  } finally {
    await replay.stop();
  }
});
