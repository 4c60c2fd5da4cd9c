import 'mcp-golden/vitest';
import { join } from 'node:path';
import { recordCall, type Transcript, writeGolden } from 'mcp-golden';
import { beforeAll, describe, expect, it } from 'vitest';
import { startReleaseServer } from '../support/release-server.mjs';
import { useTempDir } from '../support/temp-dir.js';

// A server whose answer carries a time and a UUID: declared volatile once, it matches its golden run
// after run; without the declaration it never can.
const temp = useTempDir('mcp-golden-volatile-');
let golden: string;
let later: Transcript;

beforeAll(async () => {
  golden = join(temp.dir, 'report.jsonl');
  const server = await startReleaseServer('v1');
  try {
    const scenario = { tool: 'report', arguments: { topic: 'golden' } };
    await writeGolden(golden, await recordCall(server.url, scenario));
    later = await recordCall(server.url, scenario);
  } finally {
    await server.close();
  }
});

describe('toMatchGolden with volatile values', () => {
  it('matches a later run with the time and id masked', async () => {
    await expect(later).toMatchGolden(golden, { mask: ['iso-time', 'uuid'] });
  });

  it('matches a later run with the volatile block ignored by JSONPath', async () => {
    await expect(later).toMatchGolden(golden, { ignore: ['$.result.content[1].text'] });
  });

  it('fails the same run when nothing is declared, naming the block', async () => {
    await expect(expect(later).toMatchGolden(golden)).rejects.toThrow(/block 1 differs/);
  });
});
