import type { Comparison } from './compare.js';
import { eraOf, type TranscriptHeader } from './frame.js';

/** Most timing lines listed under a failure. */
const TIMING_LINES = 10;

/**
 * The era evidence of a failure, where an era is in play: the expected and the actual era and
 * version, and a word when they differ (a 2025 golden cannot match a 2026-07-28 session). Nothing
 * for two legacy transcripts.
 */
export function eraEvidence(expected: TranscriptHeader, actual: TranscriptHeader): string | undefined {
  const [e, a] = [eraOf(expected), eraOf(actual)];
  if (e === 'legacy' && a === 'legacy') return undefined;
  if (e === a) return `Era: ${e} (${expected.protocolVersion}).`;
  return `Era: the golden was recorded in the ${e} era (${expected.protocolVersion}), this stream in the ${a} era (${actual.protocolVersion}): record the golden again in the era the code under test speaks.`;
}

/**
 * The lines under a failed comparison's headline, as `toMatchGolden` and the CLI's diff print
 * them: the era evidence, `Changes:` (the change set of the first difference) and `Timing:` (the
 * first ten frames outside the tolerance), each item indented by two spaces.
 */
export function comparisonLines(
  comparison: Comparison,
  expected: TranscriptHeader,
  actual: TranscriptHeader,
): string[] {
  const lines: string[] = [];
  const eras = eraEvidence(expected, actual);
  if (eras !== undefined) lines.push(eras);
  if (comparison.changes.length > 0) lines.push('Changes:', ...comparison.changes.map((c) => `  ${c}`));
  if (comparison.timing.length > 0) {
    lines.push('Timing:', ...comparison.timing.slice(0, TIMING_LINES).map((c) => `  ${c}`));
    const more = comparison.timing.length - TIMING_LINES;
    if (more > 0) lines.push(`  … and ${more} more`);
  }
  return lines;
}
