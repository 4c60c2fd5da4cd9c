import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type RecordTarget, recordCall, verifyGoldens, writeGolden } from '../../src/index.js';
import type { Scenario } from '../../src/record/scenario.js';
import { formatDifference } from '../../src/verify/json-difference.js';
import { EVERYTHING, useEverythingHttp } from '../support/server-everything.js';

const SCENARIOS: Scenario[] = [
  { name: 'echo', tool: 'echo', arguments: { message: 'hello, café ☕' } },
  { name: 'sum', tool: 'get-sum', arguments: { a: 2, b: 40 } },
  {
    name: 'long-running',
    tool: 'trigger-long-running-operation',
    arguments: { duration: 0.6, steps: 4 },
    progressToken: 'lro-1',
  },
];

const everything = useEverythingHttp('mcp-golden-verify-everything-');
const everythingStdio: RecordTarget = {
  command: process.execPath,
  args: [EVERYTHING, 'stdio'],
  label: 'mcp-server-everything stdio',
};

async function recordAll(target: RecordTarget, sub: string): Promise<string[]> {
  const files: string[] = [];
  for (const scenario of SCENARIOS) {
    const file = join(everything.dir, sub, `${scenario.name}.jsonl`);
    await writeGolden(file, await recordCall(target, scenario));
    files.push(file);
  }
  return files;
}

describe('verify against @modelcontextprotocol/server-everything', () => {
  for (const transport of ['http', 'stdio'] as const) {
    it(`verifies its own goldens over ${transport} clean, twice, with no ignores or masks`, async () => {
      const target: RecordTarget = transport === 'http' ? everything.http.url : everythingStdio;
      const files = await recordAll(target, transport);
      const before = await Promise.all(files.map((f) => readFile(f)));
      for (let run = 0; run < 2; run++) {
        const verdicts = await verifyGoldens(files, { target, concurrency: 3, update: true });
        expect(verdicts.map((v) => [v.file.split('/').pop(), v.differences.map((d) => formatDifference(d))])).toEqual(
          SCENARIOS.map((s) => [`${s.name}.jsonl`, []]),
        );
        expect(verdicts.every((v) => v.pass && !v.rewritten)).toBe(true);
      }
      const golden = await readFile(files[2] as string, 'utf8');
      expect(golden.match(/notifications\/progress/g)).toHaveLength(4);
      expect(golden).toContain('tools/list');
      const after = await Promise.all(files.map((f) => readFile(f)));
      expect(after.every((bytes, i) => bytes.equals(before[i] as Buffer))).toBe(true);
    });
  }
});
