import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MemoryGoldenStore } from '../../test/support/memory-golden-store.js';
import type { GoldenStore } from '../store/golden-store.js';
import type { Transcript } from '../transcript/frame.js';
import { parseTranscript } from '../transcript/parse.js';
import { serializeTranscript } from '../transcript/serialize.js';
import { setGoldenStore } from './active-golden-store.js';
import { resetTestClaims } from './golden-claims.js';
import { type MatcherResult, toMatchGolden } from './to-match-golden.js';
import type { UpdateMode } from './update-mode.js';

const root = process.cwd();
const testPath = `${root}/test/x.test.ts`;
const dir = `${root}/test/__goldens__/x`;
const store = new MemoryGoldenStore();
let previous: GoldenStore;
let chatty: Transcript;
let other: Transcript;

beforeAll(async () => {
  previous = setGoldenStore(store);
  const text = await readFile(fileURLToPath(new URL('../../goldens/chatty.jsonl', import.meta.url)), 'utf8');
  chatty = parseTranscript(text);
  const progress = await readFile(
    fileURLToPath(new URL('../../goldens/progress-10x100.jsonl', import.meta.url)),
    'utf8',
  );
  other = parseTranscript(progress);
});
afterAll(() => {
  setGoldenStore(previous);
});

/** Calls the matcher as vitest would, in test `testName`, with update mode `mode`. */
function match(testName: string, mode: UpdateMode, received: Transcript, ...args: unknown[]): Promise<MatcherResult> {
  return matchIn(testPath, testName, mode, received, ...args);
}

function matchIn(
  file: string,
  testName: string,
  mode: UpdateMode,
  received: Transcript,
  ...args: unknown[]
): Promise<MatcherResult> {
  const context = {
    isNot: false,
    testPath: file,
    currentTestName: testName,
    snapshotState: { snapshotUpdateState: mode },
  };
  return (toMatchGolden as (this: unknown, ...a: unknown[]) => Promise<MatcherResult>).call(context, received, ...args);
}

describe('toMatchGolden through a golden store', () => {
  test('unnamed calls in one test are numbered; the store holds each', async () => {
    expect((await match('numbers', 'new', chatty)).pass).toBe(true);
    expect((await match('numbers', 'new', other)).pass).toBe(true);
    expect(store.under(dir).filter((p) => p.includes('/numbers-'))).toEqual([
      `${dir}/numbers-1.jsonl`,
      `${dir}/numbers-2.jsonl`,
    ]);
    expect(store.files.get(`${dir}/numbers-1.jsonl`)).toBe(serializeTranscript(chatty));
  });

  test('the same explicit name twice in one test fails, naming both places', async () => {
    const here = fileURLToPath(import.meta.url);
    expect((await matchIn(here, 'twice', 'new', chatty, './fixtures/same')).pass).toBe(true);
    const second = await matchIn(here, 'twice', 'new', chatty, './fixtures/same');
    expect(second.pass).toBe(false);
    expect(second.message()).toMatch(
      /^\[mcp-golden\] test "twice" compares with golden "src\/vitest\/fixtures\/same\.jsonl" twice: at src\/vitest\/to-match-golden\.test\.ts:\d+:\d+ and at src\/vitest\/to-match-golden\.test\.ts:\d+:\d+\./,
    );
  });

  test('in CI a missing golden fails with the vitest command for the test file, and nothing is written', async () => {
    const result = await match('in ci', 'none', chatty);
    expect(result.pass).toBe(false);
    expect(result.message()).toBe(
      '[mcp-golden] golden "test/__goldens__/x/in-ci-1.jsonl" is missing, and goldens are not written in CI. Run `npx vitest run test/x.test.ts -u` locally and commit test/__goldens__/x/in-ci-1.jsonl.',
    );
    expect(store.files.has(`${dir}/in-ci-1.jsonl`)).toBe(false);
  });

  test('a truncated golden is explained without -u (relative path, vitest command) and rewritten with it', async () => {
    const path = `${dir}/truncated-1.jsonl`;
    store.files.set(path, serializeTranscript(chatty).slice(0, 500));
    const explained = await match('truncated', 'new', chatty);
    expect(explained.pass).toBe(false);
    expect(explained.message()).toContain('golden "test/__goldens__/x/truncated-1.jsonl" cannot be read:');
    expect(explained.message()).toContain('Fix: run `npx vitest run test/x.test.ts -u` to rewrite it from this test');
    expect(explained.message()).not.toContain(root);
    expect(explained.message()).not.toContain('mcp-golden record');
    resetTestClaims(testPath, 'truncated'); // a new run of the test
    expect((await match('truncated', 'all', chatty)).pass).toBe(true);
    expect(store.files.get(path)).toBe(serializeTranscript(chatty));
  });

  test('an older or unknown format is named as such, not as newer', async () => {
    store.files.set(`${dir}/old-format-1.jsonl`, '{"format":"mcp-golden/0"}\n');
    const result = await match('old format', 'new', chatty);
    expect(result.message()).toContain(
      'cannot be read: it is in format mcp-golden/0, which this version of mcp-golden does not read (it reads mcp-golden/1)',
    );
  });

  test('a golden recorded by `mcp-golden record` gets the record command, and -u leaves it alone', async () => {
    const path = `${root}/goldens/chatty.jsonl`;
    store.files.set(path, serializeTranscript(chatty));
    const result = await match('recorded', 'all', other, 'chatty');
    expect(result.pass).toBe(false);
    expect(result.message()).toContain(
      'Fix: this golden was recorded by `mcp-golden record` (scenario "chatty"), so `vitest -u` does not rewrite it. If the change is intended, run `npx mcp-golden record chatty`',
    );
    expect(store.files.get(path)).toBe(serializeTranscript(chatty));
  });

  test("a golden recorded from the user's own server names that server in the record command", async () => {
    const path = `${root}/goldens/echo.jsonl`;
    const own = serializeTranscript({
      ...chatty,
      header: { ...chatty.header, scenario: 'echo', target: 'https://mcp.example.com/mcp?key=<redacted>' },
    });
    store.files.set(path, own);
    const result = await match('own server', 'all', other, 'echo');
    expect(result.pass).toBe(false);
    expect(result.message()).toContain(
      "run `npx mcp-golden record echo --target 'https://mcp.example.com/mcp?key=<redacted>' --scenarios <scenarios.json> --out goldens`",
    );
    expect(store.files.get(path)).toBe(own);
  });

  test('a differing matcher golden names the vitest command only, with no nested backticks', async () => {
    await match('differs', 'new', chatty);
    const result = await match('differs other', 'new', other, './__goldens__/x/differs-1');
    expect(result.pass).toBe(false);
    const fix = result
      .message()
      .split('\n')
      .find((l) => l.startsWith('Fix:'));
    expect(fix).toBe(
      'Fix: if the change is intended, run `npx vitest run test/x.test.ts -u` to rewrite the golden; otherwise fix the code under test.',
    );
  });
});
