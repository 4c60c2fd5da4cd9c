import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { watchStalls } from './check/stall-watch.js';
import { isGoldenError } from './errors.js';
import { streamsProgressively } from './invariants/invariants.js';
import type { RecordGoldensResult } from './record/record-goldens.js';
import { loadStandardScenarios } from './record/record-goldens.js';
import { recordReferenceGoldens as recordGoldens } from './reference-goldens.js';
import { readGolden } from './store/golden-file.js';
import { compareTranscripts } from './transcript/compare.js';
import { semanticFrames } from './transcript/semantic-view.js';

const committed = fileURLToPath(new URL('../goldens', import.meta.url));
let dir: string;
let result: RecordGoldensResult;
/** The longest time this process (server and client both) ran nothing while recording: the machine's share. */
let stallMs = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-record-'));
  await writeFile(join(dir, 'left-over.jsonl'), '');
  // Three at once: the 5 s scenario no longer waits for the other 27, and the light, timer-driven
  // recordings of the reference server in this process keep their gaps (this group runs alone).
  const watched = await watchStalls(() => recordGoldens({ outDir: dir, concurrency: 3 }));
  result = watched.value;
  stallMs = watched.longestStallMs;
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('recordGoldens (the standard scenario list against the live reference server)', () => {
  test('writes one golden per scenario and reports files no scenario produces', async () => {
    const scenarios = await loadStandardScenarios();
    expect(result.recorded.map((r) => r.name)).toEqual(scenarios.map((s) => s.name));
    const files = (await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort();
    expect(files).toEqual([...scenarios.map((s) => `${s.name}.jsonl`), 'left-over.jsonl'].sort());
    expect(result.obsolete).toEqual([join(dir, 'left-over.jsonl')]);
  });

  test('every committed golden exists and equals a fresh recording after normalisation', async () => {
    const committedFiles = (await readdir(committed)).filter((f) => f.endsWith('.jsonl')).sort();
    expect(committedFiles).toEqual(result.recorded.map((r) => `${r.name}.jsonl`).sort());
    for (const recorded of result.recorded) {
      const fresh = await readGolden(recorded.path);
      const golden = await readGolden(join(committed, `${recorded.name}.jsonl`));
      expect(semanticFrames(fresh), `${recorded.name}: regenerate with npx mcp-golden record ${recorded.name}`).toEqual(
        semanticFrames(golden),
      );
    }
  });

  test('timing stays within tolerance of the committed goldens: offsets within max(750 ms, 25%), progress gaps within 50%', async () => {
    const problems: string[] = [];
    for (const recorded of result.recorded) {
      const fresh = await readGolden(recorded.path);
      const golden = await readGolden(join(committed, `${recorded.name}.jsonl`));
      const offsets = compareTranscripts(fresh, golden, { timing: { absMs: 750, relGap: 0.25 } });
      problems.push(...offsets.timing.map((t) => `${recorded.name}: ${t}`));
      // A gap is judged within max(20 ms + the longest stall of this process, 50 %): a stall stretches
      // one gap (and shortens the next) whatever the server does, as on a loaded 2-core machine.
      const spacing = streamsProgressively(fresh, golden, { absMs: 20 + stallMs });
      if (!spacing.pass)
        problems.push(`${recorded.name}: ${spacing.evidence} (longest stall ${Math.round(stallMs)} ms)`);
    }
    expect(problems).toEqual([]);
  });

  test('every fresh golden says in its notes that the reference server recorded it', async () => {
    for (const recorded of result.recorded) {
      expect((await readGolden(recorded.path)).header.notes?.reference, recorded.name).toBe(true);
    }
  });

  test('refuses an unknown scenario name and lists the known ones', async () => {
    const error = await recordGoldens({ outDir: dir, names: ['progres'] }).catch((e: unknown) => e);
    expect(isGoldenError(error, 'E_SCENARIO')).toBe(true);
    expect((error as Error).message).toMatch(
      /^Unknown scenario "progres"\. Did you mean progress-default\? Known scenarios: progress-default, /,
    );
  });
});
