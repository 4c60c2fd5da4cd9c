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

/** Options of {@link compareSessions}. */
export interface CompareSessionOptions {
  /** Values not compared (ignored paths, masked patterns). @default nothing */
  readonly volatile?: CompiledVolatile;
  /** Tolerances of the streaming-shape check. @default the check's defaults */
  readonly streaming?: TimingTolerance;
  /** `breaking`: compatible schema changes are reported but do not fail. @default 'any' */
  readonly failOn?: 'any' | 'breaking';
}

/** The verdict on one golden: its differences and the schema changes of its listings. */
export interface SessionComparison {
  readonly pass: boolean;
  readonly differences: readonly Difference[];
  readonly schemaChanges: readonly SchemaChange[];
}

const progressValue = (a: Arrival): unknown => progressOf(a.message)?.progress;

function compareProgress(golden: SessionView, live: SessionView, volatile: CompiledVolatile): Difference[] {
  const want = golden.call.progress;
  const got = live.call.progress;
  const out: Difference[] = [];
  if (want.length !== got.length) {
    const missing = want.filter((w) => !got.some((g) => Object.is(progressValue(g), progressValue(w))));
    const which =
      got.length < want.length && missing.length > 0
        ? ` (missing: progress ${missing.map((m) => JSON.stringify(progressValue(m))).join(', ')})`
        : '';
    out.push({
      where: 'progress',
      path: '',
      expected: want.length,
      actual: got.length,
      kind: 'count',
      message: `${want.length} notifications != ${got.length}${which}`,
    });
  }
  // Pair notifications by their progress value when each has one, so one lost notification is one
  // difference, not a shifted list of them.
  const byValue = want.every((w) => typeof progressValue(w) === 'number');
  want.forEach((w, i) => {
    const g = byValue ? got.find((x) => Object.is(progressValue(x), progressValue(w))) : got[i];
    if (!g) return;
    out.push(...diffJson(volatile.apply(w.message), volatile.apply(g.message), `progress ${i + 1}`));
  });
  const late = (v: SessionView): number =>
    v.call.response === undefined
      ? 0
      : v.call.progress.filter((p) => p.order > (v.call.response as Arrival).order).length;
  if (late(live) > late(golden)) {
    out.push({
      where: 'progress',
      path: '',
      kind: 'order',
      expected: late(golden),
      actual: late(live),
      message: `${late(live)} notifications arrived after the result; the golden had ${late(golden)}`,
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
  if (wantResponse && gotResponse) {
    differences.push(...diffJson(volatile.apply(wantResponse), volatile.apply(gotResponse), where(wantResponse)));
  } else if (wantResponse || gotResponse) {
    differences.push({
      where: where(wantResponse ?? gotResponse),
      path: '',
      kind: wantResponse ? 'missing' : 'added',
      message: wantResponse ? 'the live server sent no response to the call' : 'the golden has no response to the call',
    });
  }
  differences.push(...compareProgress(want, got, volatile));
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
