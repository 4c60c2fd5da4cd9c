/**
 * The words of the gateway check, as types: a row of the battery, what it runs with, what it
 * returns, and the report the rows add up to. Rows, the kit, the runner and the report import these;
 * this file imports no other file of check/.
 */
import type { RecordTarget } from '../record/record-call.js';
import type { Verdict } from '../report/verdict.js';
import type { AuditEntry } from '../server/audit-log.js';
import type { Era } from '../transcript/frame.js';

export type { Verdict };

/**
 * The era of the check's reference upstream: `legacy` a 2025-11-25-only server (it answers a
 * 2026-07-28 request as SDK v1's stateful transport does), `modern` 2026-07-28 only, `dual` both.
 */
export type UpstreamEra = Era | 'dual';

/** One call drawn on the timeline: when the upstream sent, when the client received. */
export interface TimelineCall {
  readonly label: string;
  /** Epoch ms of each progress notification the upstream sent. */
  readonly upstreamSentMs: readonly number[];
  /** Epoch ms of each progress notification the client received. */
  readonly clientReceivedMs: readonly number[];
  /** Epoch ms the client received the result, if it did. */
  readonly clientResultMs?: number;
}

/** One row of the verdict table. */
export interface PropertyResult {
  readonly property: string;
  readonly verdict: Verdict;
  /** Why, in numbers. */
  readonly evidence: string;
  readonly numbers: Readonly<Record<string, number | string | boolean>>;
  readonly calls: readonly TimelineCall[];
}

/** The number a spacing row carries when it passed only with `X-Accel-Buffering: no` from the upstream. */
export const NEEDS_ACCEL_HEADER = 'onlyWithAccelHeader';

/** What the battery needs: where to send calls, and how to reach the upstream directly. */
export interface BatteryContext {
  /** The gateway, as the client sees it. */
  readonly gateway: RecordTarget;
  /** The upstream itself, for reference recordings. */
  readonly direct: RecordTarget;
  readonly clientTransport: 'http' | 'stdio';
  readonly upstreamTransport: 'http' | 'stdio';
  /** The upstream's audit log: read in process, or over the wire through the gateway (`audit_log`). */
  readonly audit: () => Promise<AuditEntry[]>;
  /** Longest wait for any one message. */
  readonly timeoutMs: number;
  /**
   * The upstream sends `X-Accel-Buffering: no` (HTTP upstream without `--no-accel-header`): the
   * spacing rows then also run calls for which it omits the header, to say whether live streaming
   * depends on it.
   */
  readonly upstreamAccelHeader?: boolean;
  /** The era the check's client speaks to the gateway. @default 'legacy' */
  readonly clientEra?: Era;
  /** The era of the reference upstream. @default 'legacy' */
  readonly upstreamEra?: UpstreamEra;
  /**
   * With an upstream of both eras (`dual`): the era the gateway spoke to it, as its audit row of the
   * check's first call through the gateway shows (`Mcp-*` headers: 2026-07-28). A bridge picks either.
   */
  readonly upstreamLegEra?: Era;
  /** How long the idle row's call stays silent before its result (`--idle-budget-ms`). @default 3000 */
  readonly idleBudgetMs?: number;
  /** The audit logs of two upstream replicas, when the gateway command names `{upstream2}` (the affinity row). */
  readonly replicas?: readonly [() => Promise<AuditEntry[]>, () => Promise<AuditEntry[]>];
  /** Told how long a session's process took to answer its first request, where each session starts one (the summary's starts). */
  readonly onStarted?: (ms: number) => void;
}

/**
 * How a property shares the machine with the properties that run beside it (see the runner's
 * `runBattery`): `tight` judges gaps of tens of ms and runs alone; `loose` judges gaps of hundreds
 * of ms and runs beside `light` ones; `light` moves kilobytes and mostly waits; `heavy` moves
 * megabytes and runs only beside other heavy ones, never beside a timing judgement.
 */
export type BatteryLoad = 'tight' | 'loose' | 'light' | 'heavy';

/** One thing a row needs to have a meaning (`is`), and the sentence the row's n/a says when the check ran without it. */
export interface Need<T> {
  readonly is: T;
  readonly why: string;
}

/** What a row needs, declared once on the row (`row(…, { needs })`); the runner checks it before the row runs. */
export interface RowNeeds {
  /** The transport the check's client speaks to the gateway. */
  readonly clientTransport?: Need<'http' | 'stdio'>;
  /** The transport the gateway speaks to the upstream. */
  readonly upstreamTransport?: Need<'http' | 'stdio'>;
  /** The era the client speaks, the era the upstream speaks, or an era that either leg speaks. */
  readonly eras?: { readonly client?: Need<Era>; readonly upstream?: Need<Era>; readonly either?: Need<Era> };
  /** Two upstream replicas behind the gateway (`{upstream2}`). */
  readonly replicas?: Need<2>;
}

/** One property of the battery: one row of the verdict table. */
export interface BatteryProperty {
  readonly name: string;
  readonly load: BatteryLoad;
  /** Spends most of its time waiting (a client pause, slow upstream steps): started first in its stage, so the wait overlaps the others' work. */
  readonly waits?: boolean;
  /**
   * `modern`: a duty of the 2026-07-28 era, listed only when a leg speaks it (or `--only` names the
   * row); in 2025 on both legs it would be n/a.
   */
  readonly era?: 'modern';
  /** What the row needs to have a meaning: where the check runs without it, the runner reports it n/a with the need's sentence, without running it. */
  readonly needs?: RowNeeds;
  /** Never throws: a row turns its errors into a failing result. */
  run(context: BatteryContext): Promise<PropertyResult>;
}

/** The check's verdict. */
export interface CheckReport {
  readonly gateway: string;
  readonly upstreamTransport: 'http' | 'stdio';
  readonly clientTransport: 'http' | 'stdio';
  /** The eras the check ran in, where one was modern (absent: 2025-11-25 on both legs). */
  readonly eras?: { readonly client: Era; readonly upstream: UpstreamEra };
  /**
   * The gateway does not bridge the eras of this combination: it passed the client's request of one
   * era unchanged to an upstream that does not speak it. One finding, with what was sent and what came
   * back; every row is then n/a. A failure only with `requireBridge`.
   */
  readonly noBridge?: { readonly from: Era; readonly to: UpstreamEra; readonly evidence: string };
  readonly startedAt: string;
  readonly durationMs: number;
  readonly pass: boolean;
  readonly results: readonly PropertyResult[];
  /** The `only` filter the check ran with: the verdict covers these rows, not the whole battery. */
  readonly only?: readonly string[];
  /**
   * How long the processes the check started took to answer a first request (the gateway's, and
   * where each session starts one, every session's): setup, not judged by any row. `late` counts
   * those that did not answer within the timeout.
   */
  readonly starts?: {
    readonly count: number;
    readonly medianMs: number;
    readonly longestMs: number;
    readonly late: number;
  };
}
