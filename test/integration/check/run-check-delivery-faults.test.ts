import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { runGatewayCheck } from '../../../src/check/run-check.js';
import { checkThrough, failing } from '../../support/check-through-fault.js';

const GET = 'progress on the call stream (GET stream open)';
const bridge = join(fileURLToPath(new URL('../../..', import.meta.url)), 'test/support/stdio-bridge.mjs');

describe('delivery faults: GET stream, bursts, slow readers, long calls, stdio bridges', () => {
  test('progress moved to the standalone GET stream and progress lost are distinct verdicts', async () => {
    const moved = await checkThrough('progress-on-get', { only: ['GET stream'] });
    expect(failing(moved)).toEqual([GET]);
    expect(moved.results[0]?.numbers.where).toBe('GET only');
    expect(moved.results[0]?.evidence).toContain('arrived on the standalone GET stream and none on the call');
    const lost = await checkThrough('drop-progress', { only: ['GET stream'] });
    expect(failing(lost)).toEqual([GET]);
    expect(lost.results[0]?.numbers.where).toBe('nowhere');
  }, 60_000);

  test('a debouncing gateway fails the burst row and passes the 50 ms row', async () => {
    const report = await checkThrough('debounce-burst', { only: ['burst', 'progress streams live (50'] });
    expect(failing(report)).toEqual(['burst (200 notifications at once)']);
  }, 60_000);

  test('a gateway that drops progress under backpressure fails the slow-reader row', async () => {
    const report = await checkThrough('drop-on-backpressure', { only: ['slow reader'] });
    expect(failing(report)).toEqual(['slow reader (100 x 16 KiB notifications)']);
    expect(report.results[0]?.evidence).toMatch(/^client→gateway: received \d+ of 100 notifications/);
  }, 60_000);

  test('the long-call row is opt-in, fails behind a 1 s request timeout and passes on a faithful path', async () => {
    const long = { totalMs: 2500, everyMs: 500 };
    const cut = await checkThrough('timeout-1s', { only: ['long call'], long });
    expect(failing(cut)).toEqual(['long call (3 s, progress every 1 s)']);
    const faithful = await checkThrough('none', { only: ['long call'], long });
    expect(faithful.results.map((r) => [r.property, r.verdict])).toEqual([
      ['long call (3 s, progress every 1 s)', 'pass'],
    ]);
    const without = await checkThrough('none', { only: ['burst'] });
    expect(without.results.map((r) => r.property)).toEqual(['burst (200 notifications at once)']);
  }, 60_000);

  test('over a stdio upstream and a stdio client: a per-read UTF-8 decoder is caught, a faithful bridge passes', async () => {
    const run = (mode: string) =>
      runGatewayCheck({
        gateway: `node ${bridge} ${mode} '{upstream}'`,
        upstreamTransport: 'stdio',
        clientTransport: 'stdio',
        only: ['multibyte', 'concurrent'],
        timeoutMs: 10_000,
      });
    const broken = await run('utf8-per-read');
    expect(failing(broken)).toEqual(['large multibyte output (8 x 64 Ki chars)']);
    const faithful = await run('faithful');
    expect(faithful.results.map((r) => r.verdict)).toEqual(['pass', 'pass']);
    expect(faithful.results[1]?.evidence).toContain('interleaved on one stdin of one gateway process');
  }, 60_000);

  test('--only matching no row is a usage error that lists the rows', async () => {
    await expect(checkThrough('none', { only: ['nosuchprop'] })).rejects.toMatchObject({
      code: 'E_USAGE',
      message: expect.stringContaining('matches no property. The properties are:\n  progress tokens (string)'),
    });
  }, 60_000);
});
