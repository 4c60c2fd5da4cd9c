import type { CheckReport } from '../check/vocabulary.js';
import type { LintViolation } from '../lint/lint-violation.js';
import type { TimelineMark, TimelineRow, TimelineSection } from '../report/html-report.js';
import { counted } from '../transcript/counted.js';
import type { Transcript } from '../transcript/frame.js';
import { frameMessage } from '../transcript/frame-content.js';
import { errorOf, isErrorResult, paramsOf, progressOf, requestProgressToken } from '../transcript/json-rpc.js';
import { visibleText } from '../transcript/visible-text.js';
import type { Difference } from '../verify/json-difference.js';
import { formatSchemaChange } from '../verify/schema-drift.js';
import type { VerifyReport } from '../verify/verify-report.js';
import { shown } from './ci-reports.js';

/** `check --html`: one row per call of each check row, upstream sends and client arrivals on a shared axis. */
export function checkSections(report: CheckReport): TimelineSection[] {
  const rows = report.results.flatMap((result): TimelineRow[] => {
    if (result.calls.length === 0)
      return [{ name: result.property, verdict: result.verdict, evidence: result.evidence, lanes: [] }];
    return result.calls.map((call) => {
      const t0 = Math.min(
        ...call.upstreamSentMs,
        ...call.clientReceivedMs,
        ...(call.clientResultMs !== undefined ? [call.clientResultMs] : []),
      );
      const at = (t: number): number => t - (Number.isFinite(t0) ? t0 : t);
      const client: TimelineMark[] = call.clientReceivedMs.map((t, i) => ({
        ms: at(t),
        kind: 'progress',
        title: `received progress ${i + 1}`,
      }));
      if (call.clientResultMs !== undefined)
        client.push({ ms: at(call.clientResultMs), kind: 'result', title: 'received the result' });
      return {
        name: result.calls.length === 1 ? result.property : `${result.property}: ${call.label}`,
        verdict: result.verdict,
        evidence: result.evidence,
        lanes: [
          {
            name: 'upstream',
            marks: call.upstreamSentMs.map((t, i) => ({
              ms: at(t),
              kind: 'progress',
              title: `sent progress ${i + 1}`,
            })),
          },
          { name: 'client', marks: client },
        ],
      };
    });
  });
  const eras = report.eras ? ` (client era ${report.eras.client}, upstream era ${report.eras.upstream})` : '';
  return [{ title: `gateway: ${report.gateway}${eras}`, rows }];
}

interface CallRow {
  readonly name: string;
  readonly id: string;
  readonly t0: number;
  readonly client: TimelineMark[];
  readonly upstream: TimelineMark[];
}

/** Each request the client sent in a transcript, with what it sent and what the server sent for it, in ms from the request. */
function transcriptCalls(transcript: Transcript): CallRow[] {
  const calls: CallRow[] = [];
  const byId = new Map<string, CallRow>();
  const byToken = new Map<string, CallRow>();
  for (const frame of transcript.frames) {
    const message = frameMessage(frame);
    if (!message) continue;
    const method = typeof message.method === 'string' ? message.method : undefined;
    if (frame.dir === 'client->server') {
      if (method !== undefined && 'id' in message) {
        const tool = method === 'tools/call' ? ` ${String(paramsOf(message).name)}` : '';
        const call: CallRow = {
          name: `${method}${tool} (id ${JSON.stringify(message.id)})`,
          id: JSON.stringify(message.id),
          t0: frame.t,
          client: [],
          upstream: [],
        };
        call.client.push({ ms: 0, kind: 'request', title: `sent ${method}` });
        calls.push(call);
        byId.set(call.id, call);
        const token = requestProgressToken(message);
        if (token.present) byToken.set(JSON.stringify(token.token), call);
      } else if (method === 'notifications/cancelled') {
        const call = byId.get(JSON.stringify(paramsOf(message).requestId));
        call?.client.push({ ms: (frame.t - call.t0) / 1000, kind: 'cancel', title: 'sent notifications/cancelled' });
      }
      continue;
    }
    const progress = progressOf(message);
    if (progress) {
      const call = byToken.get(JSON.stringify(progress.progressToken));
      call?.upstream.push({
        ms: (frame.t - call.t0) / 1000,
        kind: 'progress',
        title: `progress ${String(progress.progress)}`,
      });
    } else if (method === undefined && 'id' in message) {
      const call = byId.get(JSON.stringify(message.id));
      const failed = errorOf(message) !== undefined || isErrorResult(message);
      call?.upstream.push({
        ms: (frame.t - call.t0) / 1000,
        kind: failed ? 'error' : 'result',
        title: failed ? 'error' : 'result',
      });
    }
  }
  return calls;
}

/** `inspect --html`: one row per call of the golden (titled `path`, as shown), marked by the progress contract (lint). */
export function goldenSection(
  path: string,
  transcript: Transcript,
  violations: readonly LintViolation[],
): TimelineSection {
  const rows = transcriptCalls(transcript).map((call): TimelineRow => {
    const broken = violations.filter((v) => v.call === call.id);
    return {
      name: call.name,
      verdict: broken.length > 0 ? 'fail' : 'pass',
      evidence:
        broken.length > 0 ? broken.map((v) => `${v.rule}: ${v.message}`).join(' ') : 'follows the progress contract',
      lanes: [
        { name: 'client', marks: call.client },
        { name: 'upstream', marks: call.upstream },
      ],
    };
  });
  return { title: path, rows };
}

/** A difference as diff lines: where, then `- expected` and `+ actual` (or its sentence). */
function diffLines(d: Difference): string[] {
  const head = `@ ${`${d.where} ${d.path}`.trim()}`;
  if (d.expected === undefined && d.actual === undefined) return [head, `  ${d.message ?? d.kind}`];
  const show = (v: unknown): string => (v === undefined ? '(absent)' : visibleText(JSON.stringify(v) ?? 'undefined'));
  return [head, `- ${show(d.expected)}`, `+ ${show(d.actual)}`];
}

/** `verify --html`: one section per golden, its calls on the shared axis, the diff beside its tools/call. */
export function verifySections(
  report: VerifyReport,
  goldens: ReadonlyMap<string, Transcript>,
  cwd: string,
): TimelineSection[] {
  return report.goldens.map((golden): TimelineSection => {
    const transcript = goldens.get(golden.file);
    const diff = golden.differences.filter((d) => d.kind !== 'schema').flatMap(diffLines);
    for (const change of report.schemaChanges) {
      if (change.goldens.includes(golden.file)) diff.push(`! ${formatSchemaChange(change)}`);
    }
    const status = golden.rewritten ? 'updated' : golden.pass ? 'pass' : 'FAIL';
    const evidence =
      golden.error ??
      golden.refused ??
      (golden.differences.length === 0 ? 'matches the golden' : counted(golden.differences.length, 'difference'));
    const calls = transcript ? transcriptCalls(transcript) : [];
    const rows = calls.map((call): TimelineRow => {
      const judged = call.name.startsWith('tools/call');
      return {
        name: call.name,
        verdict: judged ? (golden.pass ? 'pass' : 'fail') : 'n/a',
        evidence: judged ? evidence : 'as recorded in the golden',
        lanes: [
          { name: 'client', marks: call.client },
          { name: 'upstream', marks: call.upstream },
        ],
        ...(judged && { diff }),
      };
    });
    if (rows.length === 0)
      rows.push({ name: shown(golden.file, cwd), verdict: golden.pass ? 'pass' : 'fail', evidence, lanes: [], diff });
    return { title: `${shown(golden.file, cwd)}: ${status}`, rows };
  });
}

/**
 * `diff --html`: the two goldens' calls paired in order, each pair on one row with both timelines
 * on its shared axis (the first golden's lanes above the second's), the differences beside the
 * first tools/call.
 */
export function diffSections(
  names: readonly [string, string],
  goldens: readonly [Transcript, Transcript],
  verdict: { readonly equal: boolean; readonly headline: string; readonly lines: readonly string[] },
): TimelineSection[] {
  const [first, second] = goldens.map(transcriptCalls) as [CallRow[], CallRow[]];
  let diffShown = false;
  const rows = Array.from({ length: Math.max(first.length, second.length) }, (_, i): TimelineRow => {
    const [a, b] = [first[i], second[i]];
    const name = a?.name ?? b?.name ?? `call ${i + 1}`;
    const judged = name.startsWith('tools/call');
    const withDiff = judged && !verdict.equal && !diffShown;
    if (withDiff) diffShown = true;
    const lanes = (call: CallRow | undefined, label: string) => [
      { name: `${label} client`, marks: call?.client ?? [] },
      { name: `${label} server`, marks: call?.upstream ?? [] },
    ];
    return {
      name,
      verdict: judged ? (verdict.equal ? 'pass' : 'fail') : 'n/a',
      evidence: judged ? verdict.headline : a && b ? 'both goldens' : `only in ${a ? names[0] : names[1]}`,
      lanes: [...lanes(a, names[0]), ...lanes(b, names[1])],
      ...(withDiff && { diff: verdict.lines }),
    };
  });
  if (!verdict.equal && !diffShown)
    rows.unshift({ name: 'difference', verdict: 'fail', evidence: verdict.headline, lanes: [], diff: verdict.lines });
  return [{ title: `${names[0]} vs ${names[1]}: ${verdict.equal ? 'equal' : 'differ'}`, rows }];
}
