import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isGoldenError } from '../errors.js';
import { readGolden } from '../store/golden-file.js';
import type { Frame } from '../transcript/frame.js';
import { semanticFrames } from '../transcript/semantic-view.js';
import { loadStandardScenarios, type RecordGoldensResult, recordGoldens } from './record-goldens.js';

const committed = fileURLToPath(new URL('../../goldens', import.meta.url));
let dir: string;
let result: RecordGoldensResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-record-'));
  await writeFile(join(dir, 'left-over.jsonl'), '');
  result = await recordGoldens({ outDir: dir });
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

  test('timing differs from the committed goldens only within tolerance (150 ms + 10%)', async () => {
    const outside: string[] = [];
    for (const recorded of result.recorded) {
      const timed = (frames: readonly Frame[]) => frames.filter((f) => f.channel !== 'read');
      const fresh = timed((await readGolden(recorded.path)).frames);
      const golden = timed((await readGolden(join(committed, `${recorded.name}.jsonl`))).frames);
      fresh.forEach((frame, i) => {
        const expected = golden[i]?.t ?? 0;
        const delta = Math.abs(frame.t - expected) / 1000;
        if (delta > 150 + (0.1 * expected) / 1000)
          outside.push(`${recorded.name} frame ${i}: ${delta.toFixed(1)} ms off`);
      });
    }
    expect(outside).toEqual([]);
  });

  test('refuses an unknown scenario name and lists the known ones', async () => {
    const error = await recordGoldens({ outDir: dir, names: ['progres'] }).catch((e: unknown) => e);
    expect(isGoldenError(error, 'E_SCENARIO')).toBe(true);
    expect((error as Error).message).toMatch(/^Unknown scenario "progres"\. Known scenarios: progress-default, /);
  });
});
