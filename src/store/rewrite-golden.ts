import type { Transcript } from '../transcript/frame.js';
import { keepRecordedTimes } from '../transcript/keep-recorded-times.js';
import type { TimingTolerance } from '../transcript/timing-tolerance.js';
import { readGolden, writeGolden } from './golden-file.js';

/**
 * Writes `next` over the golden at `path`, keeping the lines of every frame that did not change
 * (same content, time within `tolerance`; see {@link keepRecordedTimes}), so the git diff of a
 * re-recording shows what changed and nothing else. With no readable golden there, writes `next`.
 *
 * @example
 * await rewriteGolden('goldens/search.jsonl', await recordCall(target, scenario))
 */
export async function rewriteGolden(path: string, next: Transcript, tolerance?: TimingTolerance): Promise<void> {
  const previous = await readGolden(path).catch(() => undefined);
  await writeGolden(path, previous ? keepRecordedTimes(previous, next, tolerance) : next);
}
