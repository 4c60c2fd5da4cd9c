// Golden speed: load + compare a 3.2 MB golden, and a failing compare with its diff.
import { fileURLToPath } from 'node:url';
import { compareTranscripts, readGolden } from '../../dist/index.js';
import { interleaved } from './kit.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Adds the compare rows. */
export async function run(rows) {
  const path = `${root}goldens/long_output-50x65536.jsonl`;
  const golden = await readGolden(path);
  const changed = {
    header: golden.header,
    frames: golden.frames.map((f) =>
      f.raw?.includes('[block 30]')
        ? { ...f, raw: f.raw.replace('[block 30] abcdefghij', '[block 30] abcdefXhij') }
        : f,
    ),
  };
  const samples = await interleaved(
    {
      pass: async () => {
        const loaded = await readGolden(path);
        if (!compareTranscripts(loaded, loaded).pass) throw new Error('a golden must match itself');
      },
      fail: async () => {
        const result = compareTranscripts(changed, await readGolden(path));
        if (result.pass || !result.headline.includes('block 30')) throw new Error('the changed block must be found');
      },
    },
    { runs: 5 },
  );
  rows.add({
    figure: 'load + normalise + compare a 3.2 MB golden',
    samples: samples.pass,
    unit: 'ms',
    target: { op: '<', value: 150 },
  });
  rows.add({
    figure: 'failing compare with one changed block, diff included',
    samples: samples.fail,
    unit: 'ms',
    target: { op: '<', value: 300 },
  });
}
