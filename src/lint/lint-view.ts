import type { Transcript } from '../transcript/frame.js';
import { progressOf } from '../transcript/json-rpc.js';
import {
  type Arrival,
  type Call,
  type Reconnect,
  readCalls,
  type StrayProgress,
  type StreamEvent,
} from '../transcript/read-calls.js';

/**
 * What the lint rules read: the session's calls as {@link readCalls} reads them, each judged on the
 * progress that carried its own token (a repeated SSE id, a replay, left out), the progress no
 * request's token explains, the SSE events and the reconnects.
 */
export interface LintView {
  readonly transcript: Transcript;
  readonly calls: readonly Call[];
  readonly stray: readonly StrayProgress[];
  readonly events: readonly StreamEvent[];
  readonly reconnects: readonly Reconnect[];
}

const sameToken = (a: unknown, b: unknown): boolean => a === b && typeof a === typeof b;

/** The session's calls, each with only the progress it is judged on. */
export function lintView(transcript: Transcript): LintView {
  const read = readCalls(transcript);
  const judged = new Map<Call, Call>();
  for (const call of read.calls) {
    const own = (p: Arrival): boolean =>
      !p.repeated && call.hasToken && sameToken(progressOf(p.message)?.progressToken, call.token);
    judged.set(call, { ...call, progress: call.progress.filter(own) });
  }
  const judgedOf = (call: Call | undefined): Call | undefined => (call ? judged.get(call) : undefined);
  return {
    transcript,
    calls: [...judged.values()],
    stray: read.stray.map(({ arrival, call }) => ({ arrival, call: judgedOf(call) })),
    events: read.events,
    reconnects: read.reconnects,
  };
}

/** The `progress` field of a notification. */
export const progressValue = (event: StreamEvent): unknown => progressOf(event.message)?.progress;

/** The `total` field of a notification. */
export const totalValue = (event: StreamEvent): unknown => progressOf(event.message)?.total;
