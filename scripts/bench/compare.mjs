// Golden compare: toMatchGolden on the 3.2 MB golden beside vitest's toMatchFileSnapshot and
// node:assert deepStrictEqual on the same data (timed inside one vitest run, interleaved), a
// failing compare with its diff, the memory of a compare, and preservesBlocks.

import { deepStrictEqual } from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareTranscripts, parseTranscript } from '../../dist/index.js';
import { preservesBlocks } from '../../dist/invariants/invariants.js';
import { interleaved, median } from './kit.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const golden = join(root, 'goldens/long_output-50x65536.jsonl');
const RUNS = 15;

/** The matcher samples, from the bench's own vitest test file run in a child vitest process. */
function matcherSamples() {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-golden-bench-'));
  try {
    const out = join(dir, 'samples.json');
    execFileSync(
      process.execPath,
      [
        join(root, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--config',
        'scripts/bench/fixtures/vitest.bench.config.mjs',
      ],
      {
        cwd: root,
        stdio: ['ignore', 'ignore', 'inherit'],
        // CI: neither matcher may write a file, whatever happens.
        env: {
          ...process.env,
          CI: '1',
          MCP_GOLDEN_UPDATE: 'none',
          BENCH_GOLDEN: golden,
          BENCH_RUNS: String(RUNS),
          BENCH_OUT: out,
        },
      },
    );
    return JSON.parse(readFileSync(out, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Memory of one toMatchGolden pass, as a multiple of the golden's size, each run in a fresh process. */
function memorySamples(mode) {
  const runs = [];
  for (let i = 0; i < 5; i++) {
    const stdout = execFileSync(
      process.execPath,
      [
        '--expose-gc',
        '--min-semi-space-size=64',
        '--max-semi-space-size=64',
        join(root, 'scripts/bench/fixtures/compare-memory.mjs'),
        join(root, 'dist'),
        golden,
        mode,
      ],
      { cwd: root, encoding: 'utf8', env: { ...process.env, CI: '1', MCP_GOLDEN_UPDATE: 'none' } },
    );
    runs.push(JSON.parse(stdout));
  }
  return runs;
}

const linesOf = (text) =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));

/** Adds the compare rows. */
export async function run(rows) {
  const text = readFileSync(golden, 'utf8');
  const matchers = matcherSamples();
  rows.add({
    figure: 'toMatchGolden pass, 3.2 MB golden',
    samples: matchers.toMatchGolden,
    unit: 'ms',
    target: { op: '<=', value: median(matchers.toMatchFileSnapshot), extra: ' (1.0x snapshot)' },
    peer: { name: 'toMatchFileSnapshot', samples: matchers.toMatchFileSnapshot },
    note: 'one vitest process, interleaved; received built outside the timing',
  });
  rows.add({
    figure: 'toMatchGolden pass vs node:assert, 3.2 MB',
    samples: matchers.toMatchGolden,
    unit: 'ms',
    target: { op: '<=', value: median(matchers.deepStrictEqual), extra: ' (1.0x assert)' },
    peer: { name: 'deepStrictEqual', samples: matchers.deepStrictEqual },
    note: 'assert reads and parses the file, then compares the parsed lines',
  });

  const changedText = text.replace('[block 30] abcdefghij', '[block 30] abcdefXhij');
  const failing = await interleaved(
    {
      ours: () => {
        const result = compareTranscripts(parseTranscript(changedText), parseTranscript(text));
        if (result.pass || !result.headline.includes('block 30')) throw new Error('the changed block must be found');
      },
      assert: () => {
        try {
          deepStrictEqual(linesOf(changedText), linesOf(text));
        } catch (error) {
          if (error.message.length > 0) return;
        }
        throw new Error('deepStrictEqual must fail on the changed block');
      },
    },
    { runs: RUNS },
  );
  rows.add({
    figure: 'failing compare, one changed block, diff included',
    samples: failing.ours,
    unit: 'ms',
    target: { op: '<', value: 300 },
    peer: { name: 'deepStrictEqual', samples: failing.assert },
    note: 'both parse both sides inside the timing',
  });

  for (const [mode, label] of [
    ['warm', 'compare memory, golden already prepared'],
    ['cold', 'compare memory, first compare of a golden'],
  ]) {
    const runs = memorySamples(mode);
    const size = runs[0].goldenBytes;
    rows.add({
      figure: label,
      samples: runs.map((r) => r.allocated / size),
      unit: 'x',
      target: { op: '<=', value: 3, extra: ' golden size' },
      note: `bytes allocated during one toMatchGolden (heap + external, nothing collected); kept afterwards ${(median(runs.map((r) => r.retained)) / size).toFixed(2)}x`,
    });
  }

  const blocks = await interleaved(
    {
      parsed: () => {
        const a = parseTranscript(text);
        const b = parseTranscript(text);
        preservesBlocks(a, b);
        const started = performance.now();
        const verdict = preservesBlocks(a, b);
        if (!verdict.pass) throw new Error(verdict.evidence);
        return performance.now() - started;
      },
      unparsed: () => {
        const a = parseTranscript(text);
        const b = parseTranscript(text);
        const started = performance.now();
        const verdict = preservesBlocks(a, b);
        if (!verdict.pass) throw new Error(verdict.evidence);
        return performance.now() - started;
      },
    },
    { runs: RUNS },
  );
  rows.add({
    figure: 'preservesBlocks on 3.2 MB',
    samples: blocks.parsed,
    unit: 'ms',
    target: { op: '<=', value: 10 },
    note: 'frames already parsed (as in forwardsFaithfully, after the first property)',
  });
  rows.add({
    figure: 'preservesBlocks on 3.2 MB, frames parsed inside',
    samples: blocks.unparsed,
    unit: 'ms',
    target: { op: '<=', value: 10 },
    note: 'includes parsing both 3.2 MB results',
  });
}
