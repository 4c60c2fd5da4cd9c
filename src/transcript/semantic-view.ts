import type { Frame, Transcript } from './frame.js';
import { normalizeTranscript } from './normalize.js';

/** A frame as compared semantically: normalised, without its time stamp. */
export type SemanticFrame = Omit<Frame, 't'>;

/**
 * The part of a transcript that must not change between two recordings of the same scenario:
 * normalised frames without time stamps, and without `read` frames (how bytes were cut into reads
 * varies from run to run; it is judged by the timing checks, not here).
 */
export function semanticFrames(transcript: Transcript): SemanticFrame[] {
  return normalizeTranscript(transcript)
    .frames.filter((frame) => frame.channel !== 'read')
    .map(({ t: _t, ...rest }) => rest);
}
