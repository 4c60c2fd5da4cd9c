import { afterEach, describe, expect, test } from 'vitest';
import { CLIENTS, type ClientRun, linesOf, runClient } from '../../support/run-client.js';
import {
  closeScripted,
  event,
  progress,
  result,
  type Script,
  SSE,
  scripted,
  tokenOf,
} from '../../support/scripted-mcp-server.js';

// The careful client's progress, cancel, large-event and GET-stream behaviours against a scripted
// server, and the fault that breaks each.

afterEach(closeScripted);

const careful = (...faults: string[]): string[] => [...CLIENTS.careful, ...faults.flatMap((f) => ['--fault', f])];
const CALL = { name: 'slow', arguments: {}, progress: true };
const ERAS = ['2025-11-25', '2026-07-28'] as const;

/** The careful client and a faulty one, each against a server of its own running `script`, at once. */
async function both(
  script: Script,
  [good, faulty]: readonly [readonly string[], readonly string[]],
  options: Parameters<typeof runClient>[2],
): Promise<[ClientRun, ClientRun]> {
  const [first, second] = [await scripted(script), await scripted(script)];
  return Promise.all([runClient(good, first.url, options), runClient(faulty, second.url, options)]);
}

describe.each(ERAS)('%s', (era) => {
  test('the last progress in the same write as the result is reported; async-progress-dispatch loses it', async () => {
    const script: Script = (seen, res) => {
      res.writeHead(200, SSE);
      res.write(event(progress(tokenOf(seen), 1)));
      setTimeout(() => res.end(event(progress(tokenOf(seen), 2)) + event(result(seen.message?.id, 'done'))), 50);
    };
    const [run, lossy] = await both(script, [CLIENTS.careful, careful('async-progress-dispatch')], {
      era,
      calls: [CALL],
    });
    expect(linesOf(run, 0)).toEqual([{ progress: 1, total: 3 }, { progress: 2, total: 3 }, { result: 'done' }]);
    expect(linesOf(lossy, 0)).toEqual([{ progress: 1, total: 3 }, { result: 'done' }]);
  });

  test('progress after the result and for an unknown token is ignored; unknown-progress-fatal fails the next call', async () => {
    // The stray progress comes 300 ms after the result, on the same stream: a client that stops
    // reading at the result never sees it.
    const script: Script = (seen, res, nth) => {
      res.writeHead(200, SSE);
      if (nth === 2) return void setTimeout(() => res.end(event(result(seen.message?.id, 'second'))), 1000);
      res.write(event(result(seen.message?.id, 'first')));
      setTimeout(() => res.end(event(progress(tokenOf(seen), 3)) + event(progress('never-issued', 1))), 300);
    };
    const [run, fatal] = await both(script, [CLIENTS.careful, careful('unknown-progress-fatal')], {
      era,
      calls: [CALL, CALL],
    });
    expect(run.lines).toEqual([
      { call: 0, result: 'first' },
      { call: 1, result: 'second' },
    ]);
    expect(linesOf(fatal, 1)).toEqual([{ error: expect.stringContaining('unknown token') }]);
  });

  test('a character cut across reads 50 ms apart arrives intact; utf8-per-chunk turns it into U+FFFD', async () => {
    const script: Script = (seen, res) => {
      res.writeHead(200, SSE);
      const bytes = Buffer.from(event(result(seen.message?.id, 'café 🚀')));
      const cut = bytes.indexOf(0xc3) + 1;
      res.write(bytes.subarray(0, cut));
      setTimeout(() => res.end(bytes.subarray(cut)), 50);
    };
    const [run, garbled] = await both(script, [CLIENTS.careful, careful('utf8-per-chunk')], { era, calls: [CALL] });
    expect(linesOf(run, 0)).toEqual([{ result: 'café 🚀' }]);
    expect(linesOf(garbled, 0)[0]?.result).toContain('\uFFFD');
  });

  test('a 2 MiB event is read whole; max-event-1mib drops it and never ends the call', async () => {
    const text = 'é'.repeat(1024 * 1024);
    const script: Script = (seen, res) => {
      res.writeHead(200, SSE);
      res.end(event(result(seen.message?.id, text)));
    };
    const [run, capped] = await Promise.all([
      runClient(CLIENTS.careful, (await scripted(script)).url, { era, calls: [CALL] }),
      runClient(careful('max-event-1mib'), (await scripted(script)).url, { era, calls: [CALL], timeoutMs: 3000 }),
    ]);
    expect(linesOf(run, 0)).toEqual([{ result: text }]);
    expect(capped.lines).toEqual([]);
  });
});

test('2025-11-25: an abort POSTs notifications/cancelled naming the call; cancel-wrong-id names another', async () => {
  const script: Script = (seen, res) => {
    res.writeHead(200, SSE);
    res.write(event(progress(tokenOf(seen), 1)));
  };
  // The two clients, each against a server of its own, run at once.
  await Promise.all(
    (
      [
        [CLIENTS.careful, true],
        [careful('cancel-wrong-id'), false],
      ] as const
    ).map(async ([command, named]) => {
      const server = await scripted(script);
      const run = await runClient(command, server.url, {
        era: '2025-11-25',
        calls: [{ ...CALL, abortAfterMs: 200 }],
      });
      expect(linesOf(run, 0).at(-1)).toEqual({ aborted: true });
      const call = server.seen.find((s) => s.message?.method === 'tools/call');
      const cancel = server.seen.find((s) => s.message?.method === 'notifications/cancelled');
      expect(cancel?.headers['mcp-session-id']).toBe('s1');
      expect(cancel?.message?.params?.requestId === call?.message?.id).toBe(named);
      expect((cancel?.at ?? 0) - (call?.at ?? 0)).toBeLessThan(1000);
    }),
  );
});

test('2025-11-25: a GET stream that closes at once is reopened with backoff; get-no-backoff storms', async () => {
  const flap = (res: import('node:http').ServerResponse): void => void res.writeHead(200, SSE).end();
  const script: Script = (seen, res) => {
    res.writeHead(200, SSE);
    setTimeout(() => res.end(event(result(seen.message?.id, 'late'))), 4000);
  };
  const countGets = async (command: readonly string[]): Promise<number> => {
    const server = await scripted(script, flap);
    const run = await runClient(command, server.url, { era: '2025-11-25', calls: [CALL] });
    expect(run.lines).toEqual([{ call: 0, result: 'late' }]);
    return server.seen.filter((s) => s.method === 'GET').length;
  };
  // 3 s, then 6 s later: at most 2 GETs in the 4 s the call lasts. The two clients run at once.
  const [backedOff, storm] = await Promise.all([countGets(CLIENTS.careful), countGets(careful('get-no-backoff'))]);
  expect(backedOff).toBeLessThanOrEqual(2);
  expect(storm).toBeGreaterThan(10);
});
