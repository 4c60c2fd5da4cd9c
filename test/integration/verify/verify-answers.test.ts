import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordCall } from '../../../src/record/record-call.js';
import { writeGolden } from '../../../src/store/golden-file.js';
import { verifyGoldens } from '../../../src/verify/verify-goldens.js';
import { startFakeMcpServer } from '../../support/fake-mcp-server.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-verify-answers-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('verify re-sends recorded answers', () => {
  it('as recorded, keys in their recorded order, so a server echoing the answer passes against itself', async () => {
    const server = await startFakeMcpServer('sampling');
    try {
      const file = join(dir, 'sampling.jsonl');
      // Keys deliberately not in sorted order: the golden's header sorts them, the wire must not.
      const answer = {
        role: 'assistant',
        model: 'm-1',
        content: { type: 'text', text: 'hi', annotations: { z: 1, a: 2 } },
      };
      await writeGolden(
        file,
        await recordCall(server.url, { name: 'sampling', tool: 'work', answers: { 'sampling/createMessage': answer } }),
      );
      const echoed = JSON.stringify(answer);
      const [verdict] = await verifyGoldens([file], { target: server.url });
      expect(verdict?.differences).toEqual([]);
      expect(verdict?.pass).toBe(true);
      expect(
        server.requests.filter((r) => r.body.includes('"result"') && r.body.includes('m-1')).map((r) => r.body),
      ).toEqual([expect.stringContaining(echoed), expect.stringContaining(echoed)]);
    } finally {
      await server.close();
    }
  });
});
