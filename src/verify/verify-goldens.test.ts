import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Release, startReleaseServer } from '../../test/support/release-server.mjs';
import { recordCall } from '../record/record-call.js';
import type { Scenario } from '../record/scenario.js';
import { readGolden, writeGolden } from '../store/golden-file.js';
import { formatTimeline } from '../transcript/timeline.js';
import { formatDifference } from './json-difference.js';
import { type VerifyOptions, verifyGoldens } from './verify-goldens.js';

const SCENARIOS: Scenario[] = [
  { name: 'report', tool: 'report', arguments: { topic: 'golden' } },
  { name: 'count', tool: 'count', arguments: { steps: 4 }, progressToken: 'tok-1' },
];
const VOLATILE = { mask: ['iso-time', 'uuid'] };

let dir: string;
let report: string;
let count: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-verify-'));
  const server = await startReleaseServer('v1');
  try {
    for (const scenario of SCENARIOS) {
      await writeGolden(join(dir, `${scenario.name}.jsonl`), await recordCall(server.url, scenario));
    }
  } finally {
    await server.close();
  }
  report = join(dir, 'report.jsonl');
  count = join(dir, 'count.jsonl');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function verifyAgainst(release: Release, files: string[], options: Partial<VerifyOptions> = {}) {
  const server = await startReleaseServer(release);
  try {
    return await verifyGoldens(files, { target: server.url, concurrency: 2, ...options });
  } finally {
    await server.close();
  }
}

const lines = (verdict: { differences: readonly Parameters<typeof formatDifference>[0][] }): string[] =>
  verdict.differences.map((d) => formatDifference(d));

describe('verifyGoldens', () => {
  it('passes the same release twice with its volatile parts masked, and fails on them when not', async () => {
    for (let run = 0; run < 2; run++) {
      const verdicts = await verifyAgainst('v1', [report, count], { volatile: VOLATILE });
      expect(verdicts.map((v) => [v.pass, lines(v)])).toEqual([
        [true, []],
        [true, []],
      ]);
    }
    const ignored = await verifyAgainst('v1', [report], { volatile: { ignore: ['$.result.content[1].text'] } });
    expect(ignored[0]?.pass).toBe(true);
    const [bare] = await verifyAgainst('v1', [report]);
    expect(bare?.pass).toBe(false);
    expect(lines(bare as never)).toEqual([
      expect.stringMatching(/^tools\/call result \$\.result\.content\[1\]\.text: "generated 20/),
    ]);
  });

  it('takes ignores and masks declared in the scenario from the golden header', async () => {
    const server = await startReleaseServer('v1');
    const file = join(dir, 'declared.jsonl');
    try {
      await writeGolden(
        file,
        await recordCall(server.url, { ...(SCENARIOS[0] as Scenario), name: 'declared', ...VOLATILE }),
      );
    } finally {
      await server.close();
    }
    const verdicts = await verifyAgainst('v1', [file]);
    expect(verdicts.map((v) => [v.pass, v.volatile])).toEqual([[true, VOLATILE]]);
  });

  it('fails a changed text with its path, expected first', async () => {
    const [verdict] = await verifyAgainst('text-changed', [report], { volatile: VOLATILE });
    expect(verdict?.pass).toBe(false);
    expect(lines(verdict as never)).toEqual([
      'tools/call result $.result.content[0].text: "report on golden" != "Report on golden"',
    ]);
  });

  it('fails a lost progress notification', async () => {
    const [verdict] = await verifyAgainst('lost-progress', [count]);
    expect(verdict?.pass).toBe(false);
    expect(lines(verdict as never)).toContain('progress: 4 notifications != 3 (missing: progress 4)');
  });

  it('fails progress that no longer streams, and says how it arrived', async () => {
    const [verdict] = await verifyAgainst('buffered', [count]);
    expect(verdict?.pass).toBe(false);
    expect(lines(verdict as never).join('\n')).toMatch(
      /^progress no longer streams: 4 of 4 notifications within \d+ ms of the result; the golden spread them over \d+ ms/m,
    );
  });

  it('fails a breaking and a compatible schema change, each with its class; --fail-on breaking passes the compatible one', async () => {
    const [breaking] = await verifyAgainst('breaking', [report], { volatile: VOLATILE });
    expect(breaking?.pass).toBe(false);
    expect(breaking?.schemaChanges).toEqual([
      { class: 'breaking', list: 'tools/list', item: 'report', argument: 'limit', change: 'new required argument' },
    ]);
    expect(lines(breaking as never)).toEqual([
      'tools/list: 1 schema change (1 breaking) in "report"; listed under "Tool-schema changes"',
    ]);
    const [compatible] = await verifyAgainst('compatible', [report], { volatile: VOLATILE });
    expect(compatible?.pass).toBe(false);
    expect(compatible?.schemaChanges.map((c) => `${c.class} ${c.item} ${c.argument ?? '-'} ${c.change}`)).toEqual([
      'compatible report format new optional argument',
      'compatible summary - new tool',
    ]);
    const lenient = await verifyAgainst('compatible', [report], { volatile: VOLATILE, failOn: 'breaking' });
    expect(lenient.map((v) => [v.pass, v.differs])).toEqual([[true, true]]);
    const strict = await verifyAgainst('breaking', [report], { volatile: VOLATILE, failOn: 'breaking' });
    expect(strict[0]?.pass).toBe(false);
  });

  it('rewrites only the goldens that differ with --update, leaving the others byte-identical', async () => {
    const before = { report: await readFile(report), count: await readFile(count) };
    const verdicts = await verifyAgainst('text-changed', [report, count], { volatile: VOLATILE, update: true });
    expect(verdicts.map((v) => [v.pass, v.rewritten])).toEqual([
      [true, true],
      [true, false],
    ]);
    expect((await readFile(count)).equals(before.count)).toBe(true);
    const rewritten = await readFile(report, 'utf8');
    expect(rewritten).not.toBe(before.report.toString('utf8'));
    expect(rewritten).toContain('Report on golden');
    expect(JSON.parse(rewritten.split('\n')[0] as string).notes.volatile).toEqual(VOLATILE);
    expect(formatTimeline(await readGolden(report))).toContain('verified with: ignore [] · mask ["iso-time","uuid"]');
    const again = await verifyAgainst('text-changed', [report], {});
    expect(again.map((v) => [v.pass, lines(v)])).toEqual([[true, []]]);
  });
});
