import 'mcp-golden/vitest';
import { fileURLToPath } from 'node:url';
import { readGolden, type Transcript } from 'mcp-golden';
import { type GoldenStore, setGoldenStore } from 'mcp-golden/vitest';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { MemoryGoldenStore } from '../support/memory-golden-store.js';

// The matchers as registered by the package, through an in-memory golden store: nothing touches disk.
const store = new MemoryGoldenStore();
const dir = fileURLToPath(new URL('./__goldens__/golden-naming', import.meta.url));
let previous: GoldenStore;
let chatty: Transcript;
let progress: Transcript;

beforeAll(async () => {
  previous = setGoldenStore(store);
  chatty = await readGolden(fileURLToPath(new URL('../../goldens/chatty.jsonl', import.meta.url)));
  progress = await readGolden(fileURLToPath(new URL('../../goldens/progress-10x100.jsonl', import.meta.url)));
});
afterAll(() => {
  setGoldenStore(previous);
});

let attempts = 0;
test('unnamed calls are numbered per test, afresh on each attempt', { retry: 1 }, async () => {
  vi.stubEnv('MCP_GOLDEN_UPDATE', 'new');
  attempts += 1;
  await expect(chatty).toMatchGolden();
  await expect(progress).toMatchGolden();
  if (attempts === 1) throw new Error('the first attempt fails after its assertions; the retry must reuse -1 and -2');
  expect(store.under(dir)).toEqual([
    `${dir}/unnamed-calls-are-numbered-per-test-afresh-on-each-attempt-1.jsonl`,
    `${dir}/unnamed-calls-are-numbered-per-test-afresh-on-each-attempt-2.jsonl`,
  ]);
});

test('the same explicit name twice in one test fails, naming both lines', async () => {
  vi.stubEnv('MCP_GOLDEN_UPDATE', 'new');
  await expect(chatty).toMatchGolden('./__goldens__/golden-naming/shared');
  await expect(expect(chatty).toMatchGolden('./__goldens__/golden-naming/shared')).rejects.toThrow(
    /compares with golden "test\/e2e\/__goldens__\/golden-naming\/shared\.jsonl" twice: at test\/e2e\/golden-naming\.test\.ts:\d+:\d+ and at test\/e2e\/golden-naming\.test\.ts:\d+:\d+\./,
  );
});
