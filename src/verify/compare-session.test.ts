import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Frame, Transcript } from '../transcript/frame.js';
import { parseTranscript } from '../transcript/parse.js';
import { compareSessions } from './compare-session.js';
import { formatDifference } from './json-difference.js';

const golden = parseTranscript(
  readFileSync(new URL('../../goldens/progress-cancel-after-3.jsonl', import.meta.url), 'utf8'),
  { source: 'progress-cancel-after-3.jsonl' },
);

/** The golden with its progress 3 frame sent again as progress 4, right after it (before the client's cancel). */
function withFourthProgress(transcript: Transcript): Transcript {
  const frames: Frame[] = [];
  for (const frame of transcript.frames) {
    frames.push(frame);
    if (frame.channel === 'sse' && frame.raw?.includes('"progress":3,')) {
      frames.push({ ...frame, raw: frame.raw.replace('"progress":3,', '"progress":4,').replace('5-12', '5-13') });
    }
  }
  return { ...transcript, frames };
}

const lines = (live: Transcript, cancelAfter?: number) =>
  compareSessions(golden, live, cancelAfter === undefined ? {} : { cancelAfter }).differences.map((d) =>
    formatDifference(d),
  );

describe('compareSessions on a call cancelled after N progress notifications', () => {
  it('does not count a notification that raced the cancel (both calls cancelled): only the first N are compared', () => {
    const live = withFourthProgress(golden);
    expect(lines(live)).toContain('progress: 3 notifications != 4');
    expect(lines(live, 3)).toEqual([]);
  });

  it('fails a server that streams on after the cancel: more than two past the N-th', () => {
    let live = golden;
    for (let i = 0; i < 3; i++) live = withFourthProgress(live);
    expect(lines(live, 3)).toEqual(['progress: 0 notifications after progress 3 (the cancel) != 3']);
  });

  it('still fails a call that saw fewer than N, or other values among the first N', () => {
    const fewer = { ...golden, frames: golden.frames.filter((f) => !f.raw?.includes('"progress":3,')) };
    expect(lines(fewer, 3)).toContain('progress: 3 notifications != 2 (missing: progress 3)');
    const changed = {
      ...golden,
      frames: golden.frames.map((f) =>
        f.raw?.includes('"progress":2,') ? { ...f, raw: f.raw.replace('step 2/10', 'step two') } : f,
      ),
    };
    expect(lines(changed, 3).join('\n')).toMatch(/progress 2 \$\.params\.message: "step 2\/10" != "step two"/);
  });
});
