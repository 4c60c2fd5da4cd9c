import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordCall } from '../../../src/record/record-call.js';
import type { GoldenStore } from '../../../src/store/golden-store.js';
import { parseTranscript } from '../../../src/transcript/parse.js';
import { setGoldenStore } from '../../../src/vitest/active-golden-store.js';
import { resetTestClaims } from '../../../src/vitest/golden-claims.js';
import { type MatcherResult, toMatchGolden } from '../../../src/vitest/to-match-golden.js';
import type { UpdateMode } from '../../../src/vitest/update-mode.js';
import { MemoryGoldenStore } from '../../support/memory-golden-store.js';
import { type SdkV2Server, startSdkV2Server } from '../../support/sdk-v2-server.js';

const testPath = `${process.cwd()}/test/modern.test.ts`;
const store = new MemoryGoldenStore();
let previous: GoldenStore;
let live: SdkV2Server;
let changed: SdkV2Server;
beforeAll(async () => {
  previous = setGoldenStore(store);
  [live, changed] = await Promise.all([
    startSdkV2Server({ legacy: 'reject' }),
    startSdkV2Server({ legacy: 'reject', confirmWord: 'approved' }),
  ]);
});
afterAll(async () => {
  setGoldenStore(previous);
  await Promise.all([live.close(), changed.close()]);
});

function match(testName: string, mode: UpdateMode, received: unknown): Promise<MatcherResult> {
  resetTestClaims(testPath, testName);
  const context = { isNot: false, testPath, currentTestName: testName, snapshotState: { snapshotUpdateState: mode } };
  return (toMatchGolden as (this: unknown, ...a: unknown[]) => Promise<MatcherResult>).call(context, received);
}

const confirm = (url: string) =>
  recordCall(url, {
    tool: 'confirm',
    era: 'modern',
    answers: { 'elicitation/create': { action: 'accept', content: { ok: true } } },
  });

describe('toMatchGolden on modern (2026-07-28) recordings', () => {
  test('a progress call and an input_required round match their goldens on a second recording', async () => {
    const progress = {
      tool: 'progress',
      arguments: { steps: 3, step_ms: 20 },
      progressToken: 'm',
      era: 'modern',
    } as const;
    expect((await match('progress', 'new', await recordCall(live.url, progress))).pass).toBe(true);
    expect((await match('progress', 'none', await recordCall(live.url, progress))).pass).toBe(true);
    expect((await match('confirm', 'new', await confirm(live.url))).pass).toBe(true);
    expect((await match('confirm', 'none', await confirm(live.url))).pass).toBe(true);
  });

  test('a changed final answer after the input_required round fails, showing both texts', async () => {
    expect((await match('changed', 'new', await confirm(live.url))).pass).toBe(true);
    const result = await match('changed', 'none', await confirm(changed.url));
    expect(result.pass).toBe(false);
    expect(result.message()).toMatch(/frame \d+ of \d+ differs/);
    expect(`${result.expected}`).toContain('confirmed:');
    expect(`${result.actual}`).toContain('approved:');
    expect(result.message()).toContain('\nEra: modern (2026-07-28).\n');
  });

  test('a modern stream against a golden of the legacy era says so', async () => {
    const legacy = parseTranscript(
      await readFile(fileURLToPath(new URL('../../../goldens/chatty.jsonl', import.meta.url)), 'utf8'),
    );
    expect((await match('cross', 'new', legacy)).pass).toBe(true);
    const result = await match('cross', 'none', await confirm(live.url));
    expect(result.pass).toBe(false);
    expect(result.message()).toContain(
      'Era: the golden was recorded in the legacy era (2025-11-25), this stream in the modern era (2026-07-28)',
    );
  });
});
