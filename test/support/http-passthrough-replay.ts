import { PassThrough } from 'node:stream';
import { type HttpPassthrough, startHttpPassthrough } from '../../src/replay/passthrough/index.js';
import { createReplayServer, type ReplayServer } from '../../src/replay/replay-server.js';
import { readGolden } from '../../src/store/golden-file.js';

/**
 * `replay --unmatched passthrough --target <live>` in process: a replay of goldens/chatty.jsonl
 * (`pace: 'instant'`) whose misses go to `live`, the sessions passed through written under `out`.
 * The caller closes the replay, then calls `passthrough.finish()` for the files written.
 */
export async function startHttpPassthroughReplay(
  live: string,
  out: string,
): Promise<{ readonly passthrough: HttpPassthrough; readonly replay: ReplayServer }> {
  const passthrough = await startHttpPassthrough(live, out, new PassThrough());
  const replay = await createReplayServer(await readGolden('goldens/chatty.jsonl'), {
    pace: 'instant',
    fallback: passthrough.fallback,
  });
  return { passthrough, replay };
}
