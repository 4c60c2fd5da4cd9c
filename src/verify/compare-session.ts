import type { Transcript } from '../transcript/frame.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { progressOf } from '../transcript/json-rpc.js';
import type { Arrival } from '../transcript/read-calls.js';
import type { TimingTolerance } from '../transcript/timing-tolerance.js';
import { type CompiledVolatile, compileVolatile } from '../transcript/volatile.js';
import { type Difference, diffJson } from './json-difference.js';
import { classifyListChanges, type SchemaChange } from './schema-drift.js';
import { type SessionView, sessionView } from './session-view.js';
import { progressShapeChange } from './streaming-shape.js';

/**
 * What differs in every run of a task (tasks extension): the id the server gives it, its times, and
 * the id of the poll that found it ended (how many polls it took varies).
 */
const TASK_VOLATILE = compileVolatile({
  ignore: [
    '$.id',
    '$.result.taskId',
    '$.result.createdAt',
    '$.result.lastUpdatedAt',
    // 2025-11-25 experimental tasks: the tasks/result answer names its task here (SDK 1.32).
    "$.result._meta['io.modelcontextprotocol/related-task'].taskId",
  ],
});

/** Options of {@link compareSessions}. */
export interface CompareSessionOptions {
  /** Values not compared (ignored paths, masked patterns). @default nothing */
  readonly volatile?: CompiledVolatile;
  /** Tolerances of the streaming-shape check. @default the check's defaults */
  readonly streaming?: TimingTolerance;
  /** `breaking`: compatible schema changes are reported but do not fail. @default 'any' */
  readonly failOn?: 'any' | 'breaking';
  /**
   * The scenario's `cancelAfter`: when the golden's call and the live call were both cancelled, their
   * first N progress notifications (the ones the client waited for) are compared in full; of those
   * after, only a count that differs by more than two (a server that streams on after the cancel):
   * up to two are the race between the server's next notifications and its handling of the cancel.
   */
  readonly cancelAfter?: number;
}

/** The verdict on one golden: its differences and the schema changes of its listings. */
export interface SessionComparison {
  readonly pass: boolean;
  readonly differences: readonly Difference[];
  readonly schemaChanges: readonly SchemaChange[];
}

const progressValue = (a: Arrival): unknown => progressOf(a.message)?.progress;

/**
 * Notifications past a cancelled call's N-th that may differ in number between two runs: one in
 * flight when the client read the N-th, one the server wrote before it read the cancel.
 */
const RACED_AFTER_CANCEL = 2;

/** Whether `part` is `whole` with items left out, order kept (`Object.is` per value). */
function isSubsequence(part: readonly unknown[], whole: readonly unknown[]): boolean {
  let at = 0;
  for (const value of part) {
    while (at < whole.length && !Object.is(whole[at], value)) at++;
    if (at++ >= whole.length) return false;
  }
  return true;
}

/**
 * Pairs the golden's notifications with the live ones, in order. When one list is the other with
 * notifications left out (one lost, one extra), each is paired with its own value so a loss is one
 * difference, not a shifted list of them; otherwise position by position.
 */
function pairProgress(want: readonly Arrival[], got: readonly Arrival[]): [Arrival, Arrival, number][] {
  const [w, g] = [want.map(progressValue), got.map(progressValue)];
  const pairs: [Arrival, Arrival, number][] = [];
  if (want.length !== got.length && (isSubsequence(g, w) || isSubsequence(w, g))) {
    const [short, long] = g.length < w.length ? [got, want] : [want, got];
    let at = 0;
    for (const item of short) {
      while (at < long.length && !Object.is(progressValue(long[at] as Arrival), progressValue(item))) at++;
      const other = long[at++] as Arrival;
      const [a, b] = short === want ? [item, other] : [other, item];
      pairs.push([a, b, want.indexOf(a)]);
    }
    return pairs;
  }
  for (let i = 0; i < Math.min(want.length, got.length); i++) pairs.push([want[i] as Arrival, got[i] as Arrival, i]);
  return pairs;
}

const isLate = (v: SessionView, p: Arrival): boolean =>
  v.call.response !== undefined && p.order > v.call.response.order;

/**
 * Progress compared in order: the count, the sequence of progress values (reordered or repeated
 * notifications differ), each notification's total, message and token, and which of them arrived
 * after the result.
 */
function compareProgress(
  golden: SessionView,
  live: SessionView,
  volatile: CompiledVolatile,
  cancelAfter: number | undefined,
): Difference[] {
  const bothCancelled = golden.call.cancelAtMs !== undefined && live.call.cancelAtMs !== undefined;
  const upTo = bothCancelled && cancelAfter !== undefined ? cancelAfter : Number.POSITIVE_INFINITY;
  const want = golden.call.progress.slice(0, upTo);
  const got = live.call.progress.slice(0, upTo);
  const out: Difference[] = [];
  // Past the N-th, up to RACED_AFTER_CANCEL more on either side are the race with the cancel; more
  // than that (a server that streams on after it) is a difference.
  const [extraWant, extraGot] = [golden.call.progress.length - want.length, live.call.progress.length - got.length];
  if (Number.isFinite(upTo) && Math.abs(extraGot - extraWant) > RACED_AFTER_CANCEL) {
    out.push({
      where: 'progress',
      path: '',
      expected: extraWant,
      actual: extraGot,
      kind: 'count',
      message: `${extraWant} notifications after progress ${upTo} (the cancel) != ${extraGot}`,
    });
  }
  const [w, g] = [want.map(progressValue), got.map(progressValue)];
  const list = (values: readonly unknown[]): string => values.map((v) => JSON.stringify(v)).join(', ') || 'none';
  const pairs = pairProgress(want, got);
  if (want.length !== got.length) {
    const missing =
      got.length < want.length && isSubsequence(g, w) ? w.filter((_, i) => !pairs.some(([, , at]) => at === i)) : [];
    out.push({
      where: 'progress',
      path: '',
      expected: want.length,
      actual: got.length,
      kind: 'count',
      message: `${want.length} notifications != ${got.length}${missing.length > 0 ? ` (missing: progress ${list(missing)})` : ''}`,
    });
  }
  if (!isSubsequence(g, w) && !isSubsequence(w, g)) {
    out.push({
      where: 'progress',
      path: '',
      kind: 'order',
      expected: w,
      actual: g,
      message: `progress values in order ${list(w)} != ${list(g)}`,
    });
  }
  for (const [a, b, i] of pairs) {
    out.push(...diffJson(volatile.apply(a.message), volatile.apply(b.message), `progress ${i + 1}`));
  }
  const lateWant = want.filter((p) => isLate(golden, p));
  const lateGot = got.filter((p) => isLate(live, p));
  const moved = pairs.filter(([a, b]) => isLate(golden, a) !== isLate(live, b));
  if (lateWant.length !== lateGot.length || moved.length > 0) {
    const n = lateGot.length;
    out.push({
      where: 'progress',
      path: '',
      kind: 'order',
      expected: lateWant.length,
      actual: n,
      message: `${n} notification${n === 1 ? '' : 's'} arrived after the result${n > 0 ? ` (progress ${list(lateGot.map(progressValue))})` : ''}; the golden had ${lateWant.length}`,
    });
  }
  return out;
}

function compareServerRequests(golden: SessionView, live: SessionView, volatile: CompiledVolatile): Difference[] {
  const want = golden.serverRequests;
  const got = live.serverRequests;
  const out: Difference[] = [];
  if (want.length !== got.length) {
    const names = (list: readonly JsonRpcMessage[]): string => list.map((m) => String(m.method)).join(', ') || 'none';
    out.push({
      where: 'server requests',
      path: '',
      expected: want.length,
      actual: got.length,
      kind: 'count',
      message: `${want.length} (${names(want)}) != ${got.length} (${names(got)})`,
    });
  }
  want.forEach((w, i) => {
    const g = got[i];
    if (g) {
      out.push(...diffJson(volatile.apply(w), volatile.apply(g), `server request ${i + 1} (${String(w.method)})`));
    }
  });
  return out;
}

function compareLists(golden: SessionView, live: SessionView, volatile: CompiledVolatile) {
  const differences: Difference[] = [];
  const schemaChanges: SchemaChange[] = [];
  for (const [method, want] of golden.lists) {
    const got = live.lists.get(method);
    if (!got) {
      differences.push({ where: method, path: '', kind: 'missing', message: 'the live session has no answer' });
      continue;
    }
    const [w, g] = [volatile.apply(want) as JsonRpcMessage, volatile.apply(got) as JsonRpcMessage];
    if ('result' in w && 'result' in g) {
      const changes = classifyListChanges(method, w.result, g.result);
      schemaChanges.push(...changes);
      // Anything the classification does not cover (pagination, extra fields) is still a difference.
      const rest = diffJson(w, g, method).filter(
        (d) => !/^\$\.result\.(tools|prompts|resources|resourceTemplates)\b/.test(d.path),
      );
      differences.push(...rest);
    } else differences.push(...diffJson(w, g, method));
  }
  return { differences, schemaChanges };
}

/**
 * Compares what the live server sent in a re-run session with the golden: the `tools/call`
 * result or error, progress notifications (count, order, token echo, content, and shape over
 * time), requests the server sent the client, and listing answers (`tools/list` and friends,
 * classified tool by tool). Both sides are normalised first (ids, tokens, sessions, times), then
 * ignored paths and masks apply to every message. Timing jitter is never a difference.
 *
 * @example
 * const verdict = compareSessions(golden, live, { volatile: compileVolatile({ mask: ['uuid'] }) })
 * for (const d of verdict.differences) console.log(formatDifference(d))
 */
export function compareSessions(
  golden: Transcript,
  live: Transcript,
  options: CompareSessionOptions = {},
): SessionComparison {
  const volatile = options.volatile ?? compileVolatile();
  const want = sessionView(golden);
  const got = sessionView(live);
  const differences: Difference[] = [];
  const lists = compareLists(want, got, volatile);
  const wantResponse = want.call.response?.message;
  const gotResponse = got.call.response?.message;
  const where = (m: JsonRpcMessage | undefined): string => `tools/call ${m && 'error' in m ? 'error' : 'result'}`;
  // A task's id and times are the server's own each run (tasks extension): its terminal status and result are compared.
  const answer = (m: JsonRpcMessage): unknown =>
    want.call.taskId === undefined ? volatile.apply(m) : TASK_VOLATILE.apply(volatile.apply(m));
  if (wantResponse && gotResponse) {
    differences.push(...diffJson(answer(wantResponse), answer(gotResponse), where(wantResponse)));
  } else if (wantResponse || gotResponse) {
    differences.push({
      where: where(wantResponse ?? gotResponse),
      path: '',
      kind: wantResponse ? 'missing' : 'added',
      message: wantResponse ? 'the live server sent no response to the call' : 'the golden has no response to the call',
    });
  }
  differences.push(...compareProgress(want, got, volatile, options.cancelAfter));
  const shape = progressShapeChange(want.call, got.call, options.streaming);
  if (shape) differences.push({ where: 'progress', path: '', kind: 'streaming', message: shape });
  differences.push(...compareServerRequests(want, got, volatile));
  differences.push(...lists.differences);
  for (const list of new Set(lists.schemaChanges.map((c) => c.list))) {
    const changes = lists.schemaChanges.filter((c) => c.list === list);
    const breaking = changes.filter((c) => c.class === 'breaking').length;
    const names = [...new Set(changes.map((c) => c.item))].map((n) => `"${n}"`).join(', ');
    differences.push({
      where: list,
      path: '',
      kind: 'schema',
      message: `${changes.length} schema change${changes.length === 1 ? '' : 's'} (${breaking} breaking) in ${names}; listed under "Tool-schema changes"`,
    });
  }
  const failing = differences.filter(
    (d) =>
      !(
        d.kind === 'schema' &&
        options.failOn === 'breaking' &&
        !lists.schemaChanges.some((c) => c.class === 'breaking')
      ),
  );
  return { pass: failing.length === 0, differences, schemaChanges: lists.schemaChanges };
}
