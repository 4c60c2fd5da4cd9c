import { describe, expect, test } from 'vitest';
import { AFFINITY_ROW } from '../../../src/check/rows/affinity.js';
import { IDLE_ROW } from '../../../src/check/rows/idle.js';
import { ROUND_ROW } from '../../../src/check/rows/rounds.js';
import { checkThroughDuty } from '../../support/duty-proxy.js';

const MODERN = { clientEra: 'modern', upstreamEra: 'modern' } as const;

const row = (report: Awaited<ReturnType<typeof checkThroughDuty>>, name: string) =>
  report.results.find((r) => r.property === name);

describe('input_required rounds (2026-07-28)', () => {
  test('through a faithful proxy the input_required result and the retry pass intact, both legs quoted', async () => {
    const report = await checkThroughDuty('none', { ...MODERN, only: ['input_required'] });
    expect(report.results.map((r) => [r.property, r.verdict])).toEqual([[ROUND_ROW, 'pass']]);
    expect(row(report, ROUND_ROW)?.evidence).toMatch(
      /^client→gateway: input_required arrived .* as the upstream sent them, retried .*; gateway→upstream: 2 round\(s\) reached the upstream; id \d+: answered input_required; id \d+: result after receiving requestState "round-1 é🚀/,
    );
  }, 60_000);

  test('a proxy that rebuilds tools/call params fails: the upstream never receives inputResponses nor requestState', async () => {
    const report = await checkThroughDuty('rebuild-call-params', { ...MODERN, only: ['input_required'] });
    const judged = row(report, ROUND_ROW);
    expect(judged?.verdict).toBe('fail');
    expect(judged?.evidence).toMatch(
      /^client→gateway: the call failed: .*asked for input \d+ times.*gateway→upstream: \d+ retries reached the upstream carrying neither inputResponses nor requestState/,
    );
  }, 60_000);

  test('a proxy that drops requestState from input_required results fails on the client leg only', async () => {
    const report = await checkThroughDuty('strip-request-state', { ...MODERN, only: ['input_required'] });
    const judged = row(report, ROUND_ROW);
    expect(judged?.verdict).toBe('fail');
    // The upstream got what the client sent (no requestState to echo): the loss is on the way to the client.
    expect(judged?.evidence).toMatch(
      /^client→gateway: the input_required result's requestState arrived as absent, the upstream sent "round-1 é🚀[^;]*\. gateway→upstream: 2 round\(s\)/,
    );
  }, 60_000);

  test('is n/a, with the reason, when either leg speaks 2025-11-25', async () => {
    const report = await checkThroughDuty('none', { clientEra: 'legacy', upstreamEra: 'modern', only: [ROUND_ROW] });
    expect(row(report, ROUND_ROW)).toMatchObject({
      verdict: 'n/a',
      // The duty proxy bridges no era: the 2026-07-28-only upstream refuses the 2025 handshake, so the
      // check's one finding ("does not bridge") is the reason.
      evidence: expect.stringMatching(/does not bridge 2025-11-25 to 2026-07-28/),
    });
  }, 60_000);
});

describe('idle budget (2026-07-28)', () => {
  test('through a faithful proxy the silent call gets its result, with the time to headers reported', async () => {
    const report = await checkThroughDuty('none', { ...MODERN, only: ['idle budget'], idleBudgetMs: 1500 });
    const judged = row(report, IDLE_ROW);
    expect(judged?.verdict).toBe('pass');
    expect(judged?.evidence).toMatch(
      /^client→gateway: response headers after \d+ ms, the result after \d+ ms; the upstream stayed silent for 1500 ms/,
    );
    // No headers before the result: the upstream sent none, and the proxy added none.
    expect(Number(judged?.numbers.headersMs)).toBeGreaterThanOrEqual(1400);
  }, 60_000);

  test('a proxy that cuts requests idle for 500 ms fails, naming the cut time on both legs', async () => {
    const report = await checkThroughDuty('idle-cut', { ...MODERN, only: ['idle budget'], idleBudgetMs: 1500 });
    const judged = row(report, IDLE_ROW);
    expect(judged?.verdict).toBe('fail');
    expect(judged?.evidence).toMatch(
      /^client→gateway: the gateway cut the call (\d+) ms after it was sent: .*HTTP 504.*; gateway→upstream: id \d+: cancelled \(the client closed the stream\) at \d+ ms/,
    );
    const cut = Number(judged?.numbers.cutMs);
    // Generous: a loaded machine is late, never early.
    expect(cut).toBeGreaterThanOrEqual(450);
    expect(cut).toBeLessThan(1400);
  }, 60_000);

  test('a proxy that answers a JSON-RPC error after 500 ms idle fails, naming the error and its time', async () => {
    const report = await checkThroughDuty('idle-error', { ...MODERN, only: ['idle budget'], idleBudgetMs: 1500 });
    const judged = row(report, IDLE_ROW);
    expect(judged?.verdict).toBe('fail');
    expect(judged?.evidence).toMatch(
      /^client→gateway: the gateway answered error -32001 "Request timed out: .*" (\d+) ms after the call was sent \(headers after \d+ ms\); .*gateway→upstream: id \d+: cancelled \(the client closed the stream\) at \d+ ms/,
    );
    expect(Number(judged?.numbers.cutMs)).toBeGreaterThanOrEqual(450);
    expect(Number(judged?.numbers.cutMs)).toBeLessThan(1400);
  }, 60_000);

  test('is n/a with a 2025 upstream, which sends its headers at once', async () => {
    const report = await checkThroughDuty('none', { only: [IDLE_ROW] });
    expect(row(report, IDLE_ROW)).toMatchObject({
      verdict: 'n/a',
      evidence: expect.stringMatching(/2025-11-25 upstream/),
    });
  }, 60_000);
});

describe('session affinity across two upstream replicas (2025 sessions)', () => {
  test('a proxy that pins each session to the replica that issued its id passes, sessions on both replicas', async () => {
    const report = await checkThroughDuty('pin-session', { replicas: 2, only: ['session affinity'] });
    const judged = row(report, AFFINITY_ROW);
    expect(judged?.verdict).toBe('pass');
    expect(judged?.evidence).toMatch(/sessions on replica 1: [1-9], on replica 2: [1-9]\)/);
  }, 60_000);

  test('a proxy that round-robins requests whatever the session fails, naming the replica each call reached', async () => {
    const report = await checkThroughDuty('round-robin', { replicas: 2, only: ['session affinity'] });
    const judged = row(report, AFFINITY_ROW);
    expect(judged?.verdict).toBe('fail');
    expect(judged?.evidence).toMatch(/session not found|Session not found|404/);
  }, 60_000);

  test('without a second replica it is n/a, saying how to give one', async () => {
    const report = await checkThroughDuty('none', { only: ['session affinity'] });
    expect(row(report, AFFINITY_ROW)).toMatchObject({
      verdict: 'n/a',
      evidence: expect.stringMatching(/\{upstream2\}.*--upstream2-port/),
    });
  }, 60_000);
});
