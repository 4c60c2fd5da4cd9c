import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordCall } from '../../src/record/record-call.js';
import { recordGoldens } from '../../src/record/record-goldens.js';
import { writeGolden } from '../../src/store/golden-file.js';
import type { Frame } from '../../src/transcript/frame.js';
import { normalizeTranscript } from '../../src/transcript/normalize.js';
import { parseTranscript } from '../../src/transcript/parse.js';
import { runInProcess } from '../support/in-process-cli.js';
import { startReleaseServer } from '../support/release-server.mjs';
import { useTempDir } from '../support/temp-dir.js';

// A re-recording after one changed text must show in git as that change: the lines of every other
// frame (same content, time within the tolerance: max(20 ms, 50%) of its offset in its exchange)
// stay as they were. Over loopback HTTP to an in-process server, as a developer's machine runs it.
const REPORT = { name: 'report', tool: 'report', arguments: { topic: 'golden' } };
const COUNT = { name: 'count', tool: 'count', arguments: { steps: 3 }, progressToken: 7 };
const temp = useTempDir('mcp-golden-reviewable-');
let v1: Awaited<ReturnType<typeof startReleaseServer>>;
let changed: Awaited<ReturnType<typeof startReleaseServer>>;

beforeAll(async () => {
  [v1, changed] = await Promise.all([startReleaseServer('v1'), startReleaseServer('text-changed')]);
});
afterAll(async () => {
  await Promise.all([v1?.close(), changed?.close()]);
});

const offsets = (frames: readonly Frame[]): number[] => {
  const starts = new Map<number, number>();
  return frames.map((f) => {
    if (!starts.has(f.exchange)) starts.set(f.exchange, f.t);
    return (f.t - (starts.get(f.exchange) ?? 0)) / 1000;
  });
};

/** Each frame's normalised content without its time (dates, session ids and ids as aliases). */
const contents = (text: string): string[] =>
  normalizeTranscript(parseTranscript(text)).frames.map(({ t: _t, ...rest }) => JSON.stringify(rest));

/**
 * The lines that changed between two versions of a golden, other than the header and the frames
 * whose content changed. A frame that arrived later than the tolerance allows may change, and so
 * may every line after it (times never go back): the list then stops there.
 */
function unexplainedChanges(before: string, after: string): string[] {
  const a = before.trimEnd().split('\n');
  const b = after.trimEnd().split('\n');
  const [ca, cb] = [contents(before), contents(after)];
  const was = offsets(parseTranscript(before).frames);
  const is = offsets(parseTranscript(after).frames);
  const out: string[] = [];
  for (let i = 1; i < b.length; i++) {
    if (a[i] === b[i] || ca[i - 1] !== cb[i - 1]) continue;
    const w = was[i - 1] ?? 0;
    if (Math.abs((is[i - 1] ?? 0) - w) > Math.max(20, 0.5 * w)) break;
    out.push(`line ${i + 1} (offset ${w} ms, now ${is[i - 1]} ms): ${b[i]?.slice(0, 160)}`);
  }
  return out;
}

describe('re-recording a golden after one changed text', () => {
  test('verify --update rewrites only the lines that changed (and the header); the other golden is untouched', async () => {
    const goldens = join(temp.dir, 'verify');
    await writeGolden(join(goldens, 'report.jsonl'), await recordCall({ url: v1.url, label: 'release' }, REPORT));
    await writeGolden(join(goldens, 'count.jsonl'), await recordCall({ url: v1.url, label: 'release' }, COUNT));
    const before = await readFile(join(goldens, 'report.jsonl'), 'utf8');
    const count = await readFile(join(goldens, 'count.jsonl'), 'utf8');
    const masks = ['--mask', 'iso-time', '--mask', 'uuid'];
    const result = await runInProcess(['verify', '--target', changed.url, ...masks, '--update', goldens]);
    expect(result.stdout).toMatch(/UPDATED +\S*report\.jsonl/);
    const after = await readFile(join(goldens, 'report.jsonl'), 'utf8');
    expect(after).toContain('Report on golden');
    expect(before.split('\n').length).toBe(after.split('\n').length);
    expect(unexplainedChanges(before, after)).toEqual([]);
    expect(await readFile(join(goldens, 'count.jsonl'), 'utf8')).toBe(count);
  });

  test('record over an existing golden keeps the lines that did not change', async () => {
    const out = join(temp.dir, 'record');
    await recordGoldens({ target: { url: v1.url, label: 'release' }, scenarios: [REPORT], outDir: out });
    const before = await readFile(join(out, 'report.jsonl'), 'utf8');
    await recordGoldens({ target: { url: changed.url, label: 'release' }, scenarios: [REPORT], outDir: out });
    const after = await readFile(join(out, 'report.jsonl'), 'utf8');
    expect(after).toContain('Report on golden');
    expect(unexplainedChanges(before, after)).toEqual([]);
  });
});
