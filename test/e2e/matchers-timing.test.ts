import 'mcp-golden/vitest';
import { fileURLToPath } from 'node:url';
import { createReplayServer, readGolden, type Transcript } from 'mcp-golden';
import { scenarioOfGolden } from 'mcp-golden/record';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { recordThroughFault } from '../support/fault-proxy.js';

// The streaming matchers judge every gap in real time (100 ms ± 50 ms here): a faithful path must
// pass them. The machine's own stalls count against that, so these run in the timing group, after
// the other files (see vitest.config.ts); the failing paths are in matchers.test.ts.

let progress: Transcript;
let upstream: Awaited<ReturnType<typeof createReplayServer>>;

beforeAll(async () => {
  progress = await readGolden(fileURLToPath(new URL('../../goldens/progress-10x100.jsonl', import.meta.url)));
  upstream = await createReplayServer(progress);
});
afterAll(async () => {
  await upstream.close();
});

test('toStreamProgressively passes on a faithful path', async () => {
  expect(await recordThroughFault(upstream.url, 'none', scenarioOfGolden(progress))).toStreamProgressively(progress);
});

test('toForwardFaithfully passes on a faithful path and on benign transforms', async () => {
  for (const fault of ['none', 'rechunk', 'reorder-keys', 'keep-alive-comments'] as const) {
    expect(await recordThroughFault(upstream.url, fault, scenarioOfGolden(progress)), fault).toForwardFaithfully(
      progress,
    );
  }
});
