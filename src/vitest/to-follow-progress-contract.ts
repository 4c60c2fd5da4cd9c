import { type LintOptions, lintTranscript } from '../lint/lint-transcript.js';
import { formatViolation } from '../lint/lint-violation.js';
import { isTranscript, type MatcherResult } from './to-match-golden.js';

/**
 * `expect(recording).toFollowProgressContract(options?)`: the `mcp-golden lint` rules as a
 * matcher, with one failure line block per violation in the same words as the CLI.
 */
export function toFollowProgressContract(
  this: { isNot: boolean },
  received: unknown,
  options?: LintOptions,
): MatcherResult {
  if (!isTranscript(received)) {
    return {
      pass: false,
      message: () =>
        `[mcp-golden] toFollowProgressContract expects a recorded transcript (from recordCall or readGolden), got ${typeof received}.`,
    };
  }
  const report = lintTranscript(received, options);
  const count = report.violations.length;
  return {
    pass: count === 0,
    message: () =>
      count === 0
        ? `[mcp-golden] expected a progress-contract violation, but all ${report.calls} requests follow every rule`
        : [
            `[mcp-golden] ${count} progress-contract violation${count === 1 ? '' : 's'}:`,
            ...report.violations.map((v) => formatViolation(v)),
          ].join('\n'),
  };
}
