import { expectedText } from './goldens.js';
import type {
  AuditedRequest,
  ClientPlan,
  GoldenCall,
  Judgement,
  PlannedCall,
  PrintedLine,
  RowRun,
} from './vocabulary.js';

/** Everything the client printed for one call. */
export interface CallOutcome {
  readonly progress: readonly { readonly progress: number; readonly total?: number; readonly at: number }[];
  readonly result?: { readonly text: string; readonly at: number };
  readonly error?: { readonly text: string; readonly at: number };
  readonly aborted?: number;
}

/** What the client printed for call `index`. */
export function outcomeOf(run: RowRun, index: number): CallOutcome {
  const mine = run.lines.filter((l) => l.call === index);
  const progress = mine.flatMap((l) => ('progress' in l ? [{ progress: l.progress, total: l.total, at: l.at }] : []));
  const result = mine.find((l): l is PrintedLine & { result: string } => 'result' in l);
  const error = mine.find((l): l is PrintedLine & { error: string } => 'error' in l);
  const aborted = mine.find((l) => 'aborted' in l);
  return {
    progress: progress.map((p) =>
      p.total === undefined ? { progress: p.progress, at: p.at } : { ...p, total: p.total },
    ),
    ...(result && { result: { text: result.result, at: result.at } }),
    ...(error && { error: { text: error.error, at: error.at } }),
    ...(aborted && { aborted: aborted.at }),
  };
}

/** `+1234 ms`: a time relative to the client's start. */
export const ms = (run: RowRun, at: number | undefined): string =>
  at === undefined ? 'never' : `+${Math.round(at - run.startedAt)} ms`;

/** A text for evidence: short ones whole, long ones as their length and ends. */
export function shortText(text: string, max = 60): string {
  if (text.length <= max) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, max / 2))}…(${text.length} chars)`;
}

/** How the client ended, in words. */
export function exitWords(run: RowRun): string {
  if (!run.exit) return 'still running when its time was up (stopped)';
  const how = run.exit.signal ? `killed by ${run.exit.signal}` : `exited ${run.exit.code}`;
  return `${how} at ${ms(run, run.exit.at)}`;
}

/** The plan's call made from a golden call. */
export function planned(call: GoldenCall, extra: Partial<PlannedCall> = {}): PlannedCall {
  return { name: call.name, arguments: call.arguments, progress: (call.steps ?? 0) > 0, abortAfterMs: null, ...extra };
}

/** The plan that makes the golden's calls one after another (or at once). */
export function planOf(calls: readonly GoldenCall[], concurrent = false): ClientPlan {
  return { calls: calls.map((c) => planned(c)), concurrent };
}

/** The `tools/call` requests the server saw, in order. */
export const callsSeen = (run: RowRun): AuditedRequest[] => run.audit.filter((r) => r.call !== undefined);

/** The JSON-RPC `params` of an audited request. */
export function paramsOf(request: AuditedRequest): Record<string, unknown> {
  const message = request.message as { params?: unknown } | undefined;
  return typeof message?.params === 'object' && message.params !== null
    ? (message.params as Record<string, unknown>)
    : {};
}

/** The JSON-RPC `id` of an audited request. */
export const idOf = (request: AuditedRequest): unknown => (request.message as { id?: unknown } | undefined)?.id;

/** The JSON-RPC method of an audited request. */
export const methodOf = (request: AuditedRequest): unknown =>
  (request.message as { method?: unknown } | undefined)?.method;

/**
 * Whether call `index` ended as the golden says: every progress in order (when it asked for
 * progress) and the text byte-identical. `undefined` when it did, else why not.
 */
export function wrongOutcome(run: RowRun, index: number, call: GoldenCall, withProgress: boolean): string | undefined {
  const out = outcomeOf(run, index);
  const name = `call ${index} (${call.name})`;
  if (out.error) return `${name} printed an error at ${ms(run, out.error.at)}: ${shortText(out.error.text, 160)}`;
  if (!out.result) return `${name} printed no result; the client ${exitWords(run)}`;
  const expected = expectedText(call);
  const printed = out.result.text;
  if (printed !== expected) {
    const got = [...printed];
    const at = [...expected].findIndex((c, i) => got[i] !== c);
    return `${name} printed a different text (${out.result.text.length} chars, expected ${expected.length}; first difference at character ${at}): ${shortText(out.result.text)}`;
  }
  if (withProgress) {
    const steps = call.steps ?? 0;
    const seen = out.progress.map((p) => p.progress);
    const want = Array.from({ length: steps }, (_, i) => i + 1);
    if (seen.join(',') !== want.join(',') || out.progress.some((p) => p.total !== undefined && p.total !== steps))
      return `${name} printed progress [${out.progress.map((p) => `${p.progress}/${p.total ?? '?'}`).join(', ')}], expected ${want.map((p) => `${p}/${steps}`).join(', ')}`;
  }
  return undefined;
}

/** A pass or a fail from the first thing wrong among `checks`. */
export function firstWrong(passEvidence: string, checks: readonly (string | undefined)[]): Judgement {
  const wrong = checks.find((c) => c !== undefined);
  return wrong === undefined ? { verdict: 'pass', evidence: passEvidence } : { verdict: 'fail', evidence: wrong };
}
