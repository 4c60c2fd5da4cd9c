import type { Call, StreamEvent } from '../transcript/read-calls.js';
import { type LintRuleId, type LintRuleSource, lintRule } from './lint-rules.js';
import type { LintView } from './lint-view.js';

/** One broken rule, located in the transcript, with what was expected, what was seen and the fix. */
export interface LintViolation {
  readonly rule: LintRuleId;
  readonly source: LintRuleSource;
  /** Where the rule is written down. */
  readonly reference: string;
  /** The JSON-RPC id of the call it concerns, as JSON (`1`, `"req-1"`), when there is one. */
  readonly call: string | undefined;
  /** 0-based frame index. */
  readonly frame: number;
  /** Line in the golden file (the header is line 1, frame 0 is line 2). */
  readonly line: number;
  /** Frame time in ms since the transcript began. */
  readonly atMs: number;
  /** What happened, in one sentence with numbers. */
  readonly message: string;
  readonly expected: string;
  readonly got: string;
  readonly fix: string;
}

/** Builds a violation of `rule` at `event` (or at the call's request). */
export function violation(
  view: LintView,
  rule: LintRuleId,
  at: { call?: Call | undefined; event?: StreamEvent | undefined; order?: number },
  message: string,
  expected: string,
  got: string,
): LintViolation {
  const info = lintRule(rule);
  const index = at.event?.order ?? at.order ?? at.call?.order ?? 0;
  const frame = view.transcript.frames[index];
  return {
    rule,
    source: info.source,
    reference: info.reference,
    call: at.call?.request ? JSON.stringify(at.call.request.id) : undefined,
    frame: index,
    line: index + 2,
    atMs: Math.round((frame?.t ?? 0) / 100) / 10,
    message,
    expected,
    got,
    fix: info.fix,
  };
}

/**
 * The violation in the CLI's and the matcher's words: a headline with the rule id, then what
 * was expected and got, the rule's source and the fix, e.g.
 * `goldens/x.jsonl:14 token-echo: … (frame 12, 8.9 ms, call 1)`.
 */
export function formatViolation(v: LintViolation, path?: string): string {
  const call = v.call === undefined ? '' : `, call ${v.call}`;
  const where = path === undefined ? `line ${v.line}` : `${path}:${v.line}`;
  return [
    `${where} ${v.rule}: ${v.message} (frame ${v.frame}, ${v.atMs.toFixed(1)} ms${call})`,
    `  expected ${v.expected}; got ${v.got}`,
    `  rule: ${v.source}, ${v.reference}`,
    `  fix: ${v.fix}`,
  ].join('\n');
}
