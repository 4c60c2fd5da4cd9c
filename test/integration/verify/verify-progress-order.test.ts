import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordCall } from '../../../src/record/record-call.js';
import { writeGolden } from '../../../src/store/golden-file.js';
import { formatDifference } from '../../../src/verify/json-difference.js';
import { verifyGoldens } from '../../../src/verify/verify-goldens.js';
import { type FakeCallMode, startFakeMcpServer } from '../../support/fake-mcp-server.js';

let dir: string;
let golden: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-verify-order-'));
  golden = join(dir, 'progress.jsonl');
  const server = await startFakeMcpServer('progress');
  try {
    await writeGolden(golden, await recordCall(server.url, { name: 'progress', tool: 'work', progressToken: 'p-1' }));
  } finally {
    await server.close();
  }
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function verifyAgainst(mode: FakeCallMode) {
  const server = await startFakeMcpServer(mode);
  try {
    const [verdict] = await verifyGoldens([golden], { target: server.url });
    return { pass: verdict?.pass, lines: (verdict?.differences ?? []).map((d) => formatDifference(d)) };
  } finally {
    await server.close();
  }
}

describe('verify compares progress in order', () => {
  it('passes the same notifications in the same order', async () => {
    expect(await verifyAgainst('progress')).toEqual({ pass: true, lines: [] });
  });

  it('fails the same notifications sent in reverse order', async () => {
    const verdict = await verifyAgainst('progress-reversed');
    expect(verdict.pass).toBe(false);
    expect(verdict.lines).toEqual([
      'progress values in order 1, 2, 3 != 3, 2, 1',
      'progress 1 $.params.progress: 1 != 3',
      'progress 1 $.params.message: "step 1/3" != "step 3/3"',
      'progress 3 $.params.progress: 3 != 1',
      'progress 3 $.params.message: "step 3/3" != "step 1/3"',
    ]);
  });

  it('fails progress 1 sent twice and progress 2 never', async () => {
    const verdict = await verifyAgainst('progress-repeated');
    expect(verdict.pass).toBe(false);
    expect(verdict.lines).toEqual([
      'progress values in order 1, 2, 3 != 1, 1, 3',
      'progress 2 $.params.progress: 2 != 1',
      'progress 2 $.params.message: "step 2/3" != "step 1/3"',
    ]);
  });

  it('fails a notification that now arrives after the result', async () => {
    const verdict = await verifyAgainst('progress-after-result');
    expect(verdict).toEqual({
      pass: false,
      lines: ['progress: 1 notification arrived after the result (progress 3); the golden had 0'],
    });
  });
});
