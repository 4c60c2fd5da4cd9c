import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { ClientCheckReport } from '../../../src/client-check/vocabulary.js';
import { runInProcess } from '../../support/in-process-cli.js';

// The shipped SDK wrappers judged by check --client, every row and era asserted as measured on
// 2026-11-27 (SDK v1 1.32.2, SDK v2 2.4.0; docs/client-authors.md "Checking a client" has the table).
// A pass row may also be a warn, as the issue allows.

const dir = mkdtempSync(join(tmpdir(), 'mcp-golden-sdk-verdicts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const wrapper = (name: string): string =>
  `'${process.execPath}' '${fileURLToPath(new URL(`../../../clients/${name}`, import.meta.url))}'`;

/** The rows each SDK fails, as measured; every other row and era passes. */
const SDK_V1_FAILS = [
  // frame-cr: the SDK's SSE parser keeps a stream's last CR waiting for a possible LF, so the result never dispatches.
  'frame-cr@legacy',
  'stream-ends-no-response@legacy',
  'session-404@legacy',
  'resume-drop-again@legacy',
  'get-flap@legacy',
];
const SDK_V2_FAILS = [
  'frame-cr@legacy',
  'frame-cr@modern',
  'stream-ends-no-response@legacy',
  'session-404@legacy',
  'resume-drop-again@legacy',
  'drop-reissue@modern',
  'get-flap@legacy',
];

async function judged(name: string): Promise<ClientCheckReport> {
  const json = join(dir, `${name}.json`);
  await runInProcess(['check', '--client', wrapper(name), '--json', json], { timeoutMs: 300_000 });
  return JSON.parse(readFileSync(json, 'utf8')) as ClientCheckReport;
}

const failing = (report: ClientCheckReport): string[] =>
  report.results.filter((r) => r.verdict === 'fail').map((r) => `${r.property}@${r.era}`);
const judgedAtAll = (report: ClientCheckReport): string[] =>
  report.results.filter((r) => r.verdict === 'inconclusive' || r.verdict === 'n/a').map((r) => r.property);

describe('the SDK wrappers under check --client', () => {
  it('SDK v1 1.32 (2025-11-25 only; every 2026-07-28 row fails: it does not speak it)', async () => {
    const report = await judged('sdk-v1.mjs');
    const modern = report.results.filter((r) => r.era === 'modern').map((r) => `${r.property}@modern`);
    expect(failing(report).sort()).toEqual([...SDK_V1_FAILS, ...modern].sort());
    expect(judgedAtAll(report)).toEqual([]);
    expect(report.results.find((r) => r.property === 'stream-ends-no-response')?.evidence).toMatch(/a hang/);
    expect(report.results.find((r) => r.property === 'resume-drop-again')?.evidence).toMatch(/Last-Event-ID none/);
    expect(report.results.find((r) => r.property === 'session-404')?.evidence).toMatch(/no initialize without/);
  }, 300_000);

  it('SDK v2 2.4 (2025-11-25, and pinned to 2026-07-28 in the modern era)', async () => {
    const report = await judged('sdk-v2.mjs');
    expect(failing(report).sort()).toEqual([...SDK_V2_FAILS].sort());
    expect(judgedAtAll(report)).toEqual([]);
    const reissue = report.results.find((r) => r.property === 'drop-reissue');
    expect(reissue?.evidence).toMatch(/no new tools\/call after the stream dropped/);
    // input_required over SSE twice: the SDK retries on a new id each round, the requestState as sent.
    const rounds = report.results.find((r) => r.property === 'mrtr-streamed');
    expect([rounds?.verdict, rounds?.evidence]).toEqual(['pass', expect.stringMatching(/requestState byte for byte/)]);
  }, 300_000);
});
