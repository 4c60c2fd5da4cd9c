import 'mcp-golden/vitest';
import { fileURLToPath } from 'node:url';
import { createReplayServer, readGolden, type Scenario, type Transcript } from 'mcp-golden';
import { scenarioOfGolden } from 'mcp-golden/record';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Fault, recordThroughFault } from '../support/fault-proxy.js';

const goldens = fileURLToPath(new URL('../../goldens/', import.meta.url));
let progress: Transcript;
let chatty: Transcript;
let long: Transcript;
let numeric: Transcript;
let upstream: Awaited<ReturnType<typeof createReplayServer>>;

beforeAll(async () => {
  progress = await readGolden(`${goldens}progress-10x100.jsonl`);
  chatty = await readGolden(`${goldens}chatty.jsonl`);
  long = await readGolden(`${goldens}long_output-50x65536.jsonl`);
  numeric = await readGolden(`${goldens}progress-token-max-safe-integer.jsonl`);
  upstream = await createReplayServer([progress, chatty, long, numeric]);
});
afterAll(async () => {
  await upstream.close();
});

/** Records `scenario` through a proxy applying `fault` in front of the replayed upstream. */
const through = (fault: Fault, scenario: Scenario): Promise<Transcript> =>
  recordThroughFault(upstream.url, fault, scenario);

async function failureOf(assertion: () => unknown): Promise<string> {
  try {
    await assertion();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the assertion to fail');
}

// Recordings that judge no timing run at once (each through its own proxy, as separate sessions of
// the replayed upstream); the streaming ones below run one at a time, so their gaps are the path's.
describe.concurrent('toPreserveProgressTokens', () => {
  test('passes on a faithful path', async () => {
    expect(await through('none', scenarioOfGolden(progress))).toPreserveProgressTokens(progress);
  });
  test('fails on a rewritten token, naming both values', async () => {
    const received = await through('rewrite-token', scenarioOfGolden(progress));
    expect(await failureOf(() => expect(received).toPreserveProgressTokens(progress))).toContain(
      'progress tokens: 10 of 10 progress notifications carried token "gateway-token" (string); the request sent "golden-progress-1" (string)',
    );
  });
  test('fails when a number token comes back as a string', async () => {
    const received = await through('token-to-string', scenarioOfGolden(numeric));
    expect(await failureOf(() => expect(received).toPreserveProgressTokens(numeric))).toContain(
      'carried token "9007199254740991" (string); the request sent 9007199254740991 (number)',
    );
  });
  test('fails when the last notification is dropped', async () => {
    const received = await through('drop-last-progress', scenarioOfGolden(progress));
    expect(await failureOf(() => expect(received).toPreserveProgressTokens(progress))).toContain(
      'received 9 of 10 progress notifications (the last 1 missing)',
    );
  });
  test('fails on progress after the result', async () => {
    const received = await through('progress-after-result', scenarioOfGolden(progress));
    expect(await failureOf(() => expect(received).toPreserveProgressTokens(progress))).toContain(
      '1 progress notifications arrived after the result',
    );
  });
});

describe.concurrent('toPreserveBlocks', () => {
  test('passes on a faithful path', async () => {
    expect(await through('none', scenarioOfGolden(chatty))).toPreserveBlocks(chatty);
  });
  test('fails on merged blocks', async () => {
    const received = await through('merge-blocks', scenarioOfGolden(chatty));
    expect(await failureOf(() => expect(received).toPreserveBlocks(chatty))).toContain(
      'blocks: block 0 merged with block 1 (3 blocks instead of 4)',
    );
  });
  test('fails on reordered blocks', async () => {
    const received = await through('reorder-blocks', scenarioOfGolden(chatty));
    expect(await failureOf(() => expect(received).toPreserveBlocks(chatty))).toContain(
      'blocks: block 0 moved to position 3',
    );
  });
  test('fails on a truncated block, with its sizes', async () => {
    const received = await through('truncate', scenarioOfGolden(long));
    expect(await failureOf(() => expect(received).toPreserveBlocks(long))).toContain(
      'blocks: block 0 truncated to 1000 of 65536 characters',
    );
  });
});

describe.concurrent('toPreserveUnicode', () => {
  test('passes on a faithful path', async () => {
    expect(await through('none', scenarioOfGolden(chatty))).toPreserveUnicode(chatty);
  });
  test('fails on latin-1 mangled text and says so', async () => {
    const received = await through('latin1', scenarioOfGolden(chatty));
    expect(await failureOf(() => expect(received).toPreserveUnicode(chatty))).toContain(
      'unicode: block 3: "fourth block: unicode; café résumé naïve" arrived as "fourth block: unicode; cafÃ© rÃ©sumÃ© naÃ¯ve" (UTF-8 bytes decoded as latin-1)',
    );
  });
});

// The faithful paths of the streaming matchers, which judge gaps in real time, are in
// matchers-timing.test.ts: they run in the timing group, away from the load of the other files.
describe('toStreamProgressively', () => {
  test('fails on a buffered stream, in numbers', async () => {
    const received = await through('buffer', scenarioOfGolden(progress));
    const message = await failureOf(() => expect(received).toStreamProgressively(progress));
    expect(message).toMatch(
      /streams progressively: 10 of 10 notifications arrived within 5 ms of the result; \d+ of 9 gaps outside tolerance/,
    );
    expect(message).toMatch(/expected gaps of 10\d ms ± 5\d ms/);
  });
});

describe('toForwardFaithfully', () => {
  test('reports every broken property at once', async () => {
    const received = await through('buffer', scenarioOfGolden(progress));
    const message = await failureOf(() => expect(received).toForwardFaithfully(progress));
    expect(message).toContain('streams progressively:');
    expect(message).not.toContain('progress tokens:');
  });
});
