import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { GoldenStore } from '../../../src/store/golden-store.js';
import type { Frame, Transcript } from '../../../src/transcript/frame.js';
import { parseTranscript } from '../../../src/transcript/parse.js';
import { serializeTranscript } from '../../../src/transcript/serialize.js';
import { setGoldenStore } from '../../../src/vitest/active-golden-store.js';
import { resetTestClaims } from '../../../src/vitest/golden-claims.js';
import { type MatcherResult, toMatchGolden } from '../../../src/vitest/to-match-golden.js';
import type { UpdateMode } from '../../../src/vitest/update-mode.js';
import { MemoryGoldenStore } from '../../support/memory-golden-store.js';

const root = process.cwd();
const testPath = `${root}/test/keeps.test.ts`;
const store = new MemoryGoldenStore();
let previous: GoldenStore;
let golden: Transcript;

beforeAll(async () => {
  previous = setGoldenStore(store);
  const text = await readFile(fileURLToPath(new URL('../../../goldens/chatty.jsonl', import.meta.url)), 'utf8');
  const { scenario: _, ...header } = parseTranscript(text).header;
  golden = { header, frames: parseTranscript(text).frames };
});
afterAll(() => {
  setGoldenStore(previous);
});

function match(mode: UpdateMode, received: Transcript): Promise<MatcherResult> {
  const context = { isNot: false, testPath, currentTestName: 'keeps', snapshotState: { snapshotUpdateState: mode } };
  return (toMatchGolden as (this: unknown, ...a: unknown[]) => Promise<MatcherResult>).call(context, received);
}

test('vitest -u after one changed text rewrites only the line that changed', async () => {
  expect((await match('new', golden)).pass).toBe(true);
  const [path] = store.under(`${root}/test/__goldens__/keeps`);
  const before = store.files.get(path as string) as string;
  // A new run: every time a little later, a new date in the response heads, one text changed.
  const rerun: Frame[] = golden.frames.map((frame) => ({
    ...frame,
    t: frame.t + 1500,
    ...(frame.headers?.date !== undefined && { headers: { ...frame.headers, date: 'Fri, 27 Nov 2026 08:00:00 GMT' } }),
    ...(frame.raw?.includes('second block') && { raw: frame.raw.replace('second block', 'Second block') }),
  }));
  resetTestClaims(testPath, 'keeps'); // a second run of the same test
  const result = await match('all', { header: golden.header, frames: rerun });
  expect(result.message()).toContain('updated golden');
  expect(result.pass).toBe(true);
  const after = (store.files.get(path as string) as string).split('\n');
  const changed = before.split('\n').flatMap((line, i) => (line === after[i] ? [] : [i]));
  expect(changed).toHaveLength(1);
  expect(after[changed[0] as number]).toContain('Second block');
  expect(serializeTranscript({ header: golden.header, frames: rerun })).not.toBe(after.join('\n'));
});
