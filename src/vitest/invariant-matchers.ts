import {
  forwardsFaithfully,
  type InvariantResult,
  preservesBlocks,
  preservesProgressTokens,
  preservesUnicode,
  streamsProgressively,
} from '../invariants/invariants.js';
import type { Transcript } from '../transcript/frame.js';
import type { TimingTolerance } from '../transcript/timing-tolerance.js';
import { isTranscript, type MatcherResult } from './to-match-golden.js';

function verdict(results: readonly InvariantResult[], isNot: boolean): MatcherResult {
  const failed = results.filter((r) => !r.pass);
  const pass = failed.length === 0;
  return {
    pass,
    message: () => {
      if (pass && isNot)
        return `[mcp-golden] expected a failure, but every property held: ${results.map((r) => `${r.property}: ${r.evidence}`).join('; ')}`;
      return failed.map((r) => `[mcp-golden] ${r.property}: ${r.evidence}`).join('\n');
    },
  };
}

function needTranscripts(
  name: string,
  received: unknown,
  reference: unknown,
  required: boolean,
): MatcherResult | undefined {
  if (!isTranscript(received)) {
    return {
      pass: false,
      message: () =>
        `[mcp-golden] ${name} expects a transcript of what the client received (from recordCall), got ${typeof received}.`,
    };
  }
  if ((required || reference !== undefined) && !isTranscript(reference)) {
    return {
      pass: false,
      message: () =>
        `[mcp-golden] ${name} needs the reference transcript (what the upstream sent, e.g. the golden) as its argument, got ${typeof reference}.`,
    };
  }
  return undefined;
}

/** `expect(received).toPreserveProgressTokens(reference?)`. */
export function toPreserveProgressTokens(
  this: { isNot: boolean },
  received: unknown,
  reference?: unknown,
): MatcherResult {
  return (
    needTranscripts('toPreserveProgressTokens', received, reference, false) ??
    verdict([preservesProgressTokens(received as Transcript, reference as Transcript | undefined)], this.isNot)
  );
}

/** `expect(received).toPreserveBlocks(reference)`. */
export function toPreserveBlocks(this: { isNot: boolean }, received: unknown, reference: unknown): MatcherResult {
  return (
    needTranscripts('toPreserveBlocks', received, reference, true) ??
    verdict([preservesBlocks(received as Transcript, reference as Transcript)], this.isNot)
  );
}

/** `expect(received).toPreserveUnicode(reference)`. */
export function toPreserveUnicode(this: { isNot: boolean }, received: unknown, reference: unknown): MatcherResult {
  return (
    needTranscripts('toPreserveUnicode', received, reference, true) ??
    verdict([preservesUnicode(received as Transcript, reference as Transcript)], this.isNot)
  );
}

/** `expect(received).toStreamProgressively(reference, tolerance?)`. */
export function toStreamProgressively(
  this: { isNot: boolean },
  received: unknown,
  reference: unknown,
  tolerance?: TimingTolerance,
): MatcherResult {
  return (
    needTranscripts('toStreamProgressively', received, reference, true) ??
    verdict([streamsProgressively(received as Transcript, reference as Transcript, tolerance)], this.isNot)
  );
}

/** `expect(received).toForwardFaithfully(reference, tolerance?)`: every invariant at once. */
export function toForwardFaithfully(
  this: { isNot: boolean },
  received: unknown,
  reference: unknown,
  tolerance?: TimingTolerance,
): MatcherResult {
  return (
    needTranscripts('toForwardFaithfully', received, reference, true) ??
    verdict(forwardsFaithfully(received as Transcript, reference as Transcript, tolerance), this.isNot)
  );
}
