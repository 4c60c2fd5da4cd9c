import { afterEach, describe, expect, test } from 'vitest';
import { CLIENTS, type ClientRun, linesOf, runClient } from '../../support/run-client.js';
import {
  closeScripted,
  event,
  progress,
  result,
  type Script,
  type Seen,
  SSE,
  scripted,
  tokenOf,
} from '../../support/scripted-mcp-server.js';

// The careful client's request-level behaviours (5xx, streams that end early, resumption, session 404,
// re-issue, input_required) against a scripted server, and the fault that breaks each: the server
// answers initialize / server/discover itself and hands every tools/call and GET to the test's script.

afterEach(closeScripted);

const careful = (...faults: string[]): string[] => [...CLIENTS.careful, ...faults.flatMap((f) => ['--fault', f])];
const CALL = { name: 'slow', arguments: { n: 1 }, progress: true };
const calls = (n: number) => Array.from({ length: n }, () => CALL);
const toolCalls = (seen: Seen[]) => seen.filter((s) => s.message?.method === 'tools/call');
const noLines = (run: ClientRun) => expect(run.lines).toEqual([]);
/** The GETs after the call's POST stream ended: the resumption attempts (the standalone GET comes before). */
const resumptions = (seen: Seen[]): Seen[] => {
  const ended = toolCalls(seen)[0]?.ended ?? Number.POSITIVE_INFINITY;
  return seen.filter((s) => s.method === 'GET' && s.at >= ended);
};

describe.each(['2025-11-25', '2026-07-28'] as const)('%s', (era) => {
  test('an HTTP 503 is an error line at once, and the next call works; hang-on-5xx never reports it', async () => {
    const script: Script = (seen, res, nth) => {
      if (nth === 1)
        return void res
          .writeHead(503, { 'content-type': 'application/json' })
          .end('{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"busy"}}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result(seen.message?.id, 'ok')));
    };
    const { url } = await scripted(script);
    const run = await runClient(CLIENTS.careful, url, { era, calls: calls(2) });
    expect(run.lines).toEqual([
      { call: 0, error: 'tools/call: HTTP 503 (busy)' },
      { call: 1, result: 'ok' },
    ]);
    const hang = await runClient(careful('hang-on-5xx'), (await scripted(script)).url, {
      era,
      calls: calls(1),
      timeoutMs: 2500,
    });
    noLines(hang);
  });
});

describe('2025-11-25', () => {
  const era = '2025-11-25';

  test('a stream that ends with no response and no event id is an error within 5 s; hang-on-stream-end waits', async () => {
    const script: Script = (seen, res) => {
      res.writeHead(200, SSE);
      res.end(event(progress(tokenOf(seen), 1)));
    };
    const run = await runClient(CLIENTS.careful, (await scripted(script)).url, { era, calls: calls(1) });
    expect(linesOf(run, 0)).toEqual([
      { progress: 1, total: 3 },
      { error: expect.stringContaining('without an event id') },
    ]);
    expect(run.ms).toBeLessThan(5000);
    const hang = await runClient(careful('hang-on-stream-end'), (await scripted(script)).url, {
      era,
      calls: calls(1),
      timeoutMs: 2500,
    });
    expect(linesOf(hang, 0)).toEqual([{ progress: 1, total: 3 }]);
  });

  /** Priming (id e1, retry 300) then close; the first resumption GET drops before any event, the second gets the result. */
  const resumable = (): Script => {
    let gets = 0;
    let callId: unknown;
    return (seen, res) => {
      res.writeHead(200, SSE);
      if (seen.method === 'POST') {
        callId = seen.message?.id;
        return void res.end('id: e1\nretry: 300\ndata: \n\n');
      }
      if (gets++ === 0) return void res.end();
      res.end(event(result(callId, 'resumed'), 'e2'));
    };
  };

  test('resumes with GET + Last-Event-ID after retry, and again with the same id when the resumed stream drops', async () => {
    const server = await scripted(resumable());
    const run = await runClient(CLIENTS.careful, server.url, { era, calls: calls(1) });
    expect(linesOf(run, 0)).toEqual([{ result: 'resumed' }]);
    const gets = resumptions(server.seen);
    expect(gets.map((g) => g.headers['last-event-id'])).toEqual(['e1', 'e1']);
    const postEnded = toolCalls(server.seen)[0]?.ended ?? 0;
    expect((gets[0]?.at ?? 0) - postEnded).toBeGreaterThanOrEqual(250);
    expect((gets[0]?.at ?? 0) - postEnded).toBeLessThan(500);
  });

  test.each([
    ['second-resume-no-id', ['e1', undefined]],
    ['resume-no-last-event-id', [undefined]],
  ] as const)('%s: the resumption GETs carry %j', async (fault, expected) => {
    const server = await scripted(resumable());
    await runClient(careful(fault), server.url, { era, calls: calls(1), timeoutMs: 10_000 });
    const gets = resumptions(server.seen).map((g) => g.headers['last-event-id']);
    expect(gets.slice(0, expected.length)).toEqual(expected);
  });

  test('resume-ignores-retry resumes 1000 ms after the drop instead of the 300 ms retry asks for', async () => {
    const server = await scripted(resumable());
    const run = await runClient(careful('resume-ignores-retry'), server.url, { era, calls: calls(1) });
    expect(linesOf(run, 0)).toEqual([{ result: 'resumed' }]);
    const delay = (resumptions(server.seen)[0]?.at ?? 0) - (toolCalls(server.seen)[0]?.ended ?? 0);
    expect(delay).toBeGreaterThanOrEqual(900);
  });

  test('a 404 for the session: a new initialize without the old id, then the call again; no-reinit-404 errs', async () => {
    const script: Script = (seen, res) => {
      if (seen.headers['mcp-session-id'] === 's1') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result(seen.message?.id, 'again')));
    };
    const server = await scripted(script);
    const run = await runClient(CLIENTS.careful, server.url, { era, calls: calls(1) });
    expect(run.lines).toEqual([{ call: 0, result: 'again' }]);
    const inits = server.seen.filter((s) => s.message?.method === 'initialize');
    expect(inits.map((s) => s.headers['mcp-session-id'])).toEqual([undefined, undefined]);
    expect(toolCalls(server.seen).map((s) => s.headers['mcp-session-id'])).toEqual(['s1', 's2']);
    const broken = await runClient(careful('no-reinit-404'), (await scripted(script)).url, { era, calls: calls(1) });
    expect(linesOf(broken, 0)).toEqual([{ error: expect.stringContaining('404') }]);
  });
});

describe('2026-07-28', () => {
  const era = '2026-07-28';

  test('a call whose stream drops after a progress is POSTed again: same name and arguments, a new id, no GET', async () => {
    const script: Script = (seen, res, nth) => {
      res.writeHead(200, SSE);
      if (nth === 1) return void res.end(event(progress(tokenOf(seen), 1)));
      res.end(event(result(seen.message?.id, 'reissued')));
    };
    const server = await scripted(script);
    const run = await runClient(CLIENTS.careful, server.url, { era, calls: calls(1) });
    expect(linesOf(run, 0)).toEqual([{ progress: 1, total: 3 }, { result: 'reissued' }]);
    const [first, second] = toolCalls(server.seen);
    expect(second?.message?.params?.name).toBe(first?.message?.params?.name);
    expect(second?.message?.params?.arguments).toEqual(first?.message?.params?.arguments);
    expect(second?.message?.id).not.toEqual(first?.message?.id);
    expect(server.seen.filter((s) => s.method === 'GET')).toEqual([]);
    for (const post of server.seen) {
      expect(post.headers['mcp-protocol-version']).toBe('2026-07-28');
      expect(post.headers['mcp-method']).toBe(post.message?.method);
      expect(post.message?.params?._meta).toMatchObject({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28' });
    }
    expect(toolCalls(server.seen).map((s) => s.headers['mcp-name'])).toEqual(['slow', 'slow']);
    const same = await scripted(script);
    await runClient(careful('reissue-same-id'), same.url, { era, calls: calls(1) });
    const ids = toolCalls(same.seen).map((s) => s.message?.id);
    expect(ids[0]).toEqual(ids[1]);
    const none = await runClient(careful('no-reissue'), (await scripted(script)).url, { era, calls: calls(1) });
    expect(linesOf(none, 0).at(-1)).toEqual({ error: expect.stringContaining('ended without a response') });
  });

  // A requestState that is a JSON text not in canonical form, with escapes a re-serialiser would change.
  const STATE_LITERAL = String.raw`"{\"b\": 1,  \"a\": [1.0], \"s\": \"\u00e9\"}"`;
  const rounds: Script = (seen, res) => {
    res.writeHead(200, SSE);
    const params = seen.message?.params ?? {};
    const round = params.requestState === undefined ? 0 : params.requestState === 'round-2' ? 2 : 1;
    if (round < 2) {
      const asked = `{"jsonrpc":"2.0","id":${JSON.stringify(seen.message?.id)},"result":{"resultType":"input_required","inputRequests":{"n":{"method":"elicitation/create","params":{"message":"ok?","requestedSchema":{"type":"object","properties":{}}}}},"requestState":${round === 0 ? STATE_LITERAL : '"round-2"'}}}`;
      return void res.end(`event: message\ndata: ${asked}\n\n`);
    }
    res.end(event(result(seen.message?.id, 'complete')));
  };

  test('input_required twice: each retry a new id, with the answers and the requestState byte for byte', async () => {
    const server = await scripted(rounds);
    const run = await runClient(CLIENTS.careful, server.url, { era, calls: [{ name: 'ask', arguments: {} }] });
    expect(run.lines).toEqual([{ call: 0, result: 'complete' }]);
    const posts = toolCalls(server.seen);
    expect(new Set(posts.map((p) => p.message?.id)).size).toBe(3);
    expect(posts[1]?.body).toContain(`"requestState":${STATE_LITERAL}`);
    expect(posts[1]?.message?.params?.inputResponses).toEqual({ n: { action: 'accept', content: { ok: true } } });
    const reserialised = await scripted(rounds);
    await runClient(careful('requeststate-reserialised'), reserialised.url, {
      era,
      calls: [{ name: 'ask', arguments: {} }],
    });
    expect(toolCalls(reserialised.seen)[1]?.body).not.toContain(`"requestState":${STATE_LITERAL}`);
    const sameId = await scripted(rounds);
    await runClient(careful('mrtr-same-id'), sameId.url, { era, calls: [{ name: 'ask', arguments: {} }] });
    expect(new Set(toolCalls(sameId.seen).map((p) => p.message?.id)).size).toBe(1);
  });
});
