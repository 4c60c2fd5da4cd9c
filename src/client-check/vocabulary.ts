/**
 * The words of the client check, as types: a row, the plan a client runs, what it printed, and the
 * report. Rows, the runner and the report import these; this file imports no other file of client-check/.
 */
import type { ChunkingOptions } from '../replay/chunking.js';
import type { AuditedRequest, ReplayFaults } from '../replay/replay-faults.js';
import type { Verdict } from '../report/verdict.js';
import type { Era } from '../transcript/frame.js';
import type { GoldenCall } from './goldens.js';

export type { AuditedRequest, Era, GoldenCall, Verdict };

/** One call of the plan a client is handed in `MCP_GOLDEN_PLAN` (the contract's shape). */
export interface PlannedCall {
  readonly name: string;
  readonly arguments: Readonly<Record<string, number>>;
  /** Send a progress token and print each progress notification. */
  readonly progress: boolean;
  /** Cancel the call this many ms after sending it; `null`: never. */
  readonly abortAfterMs: number | null;
}

/** `MCP_GOLDEN_PLAN`: the calls to make, one after another or all at once. */
export interface ClientPlan {
  readonly calls: readonly PlannedCall[];
  readonly concurrent: boolean;
}

/** One contract line the client printed on stdout, with when it arrived (epoch ms). */
export type PrintedLine = { readonly at: number; readonly call: number } & (
  | { readonly progress: number; readonly total?: number }
  | { readonly result: string }
  | { readonly error: string }
  | { readonly aborted: true }
);

/** What one row's server and client did: the evidence a row judges. */
export interface RowRun {
  readonly era: Era;
  /** Epoch ms the client was started. */
  readonly startedAt: number;
  /** Every request the row's server saw, in order. */
  readonly audit: readonly AuditedRequest[];
  readonly lines: readonly PrintedLine[];
  /** How the client ended, and when; `undefined`: still running when the row's time was up (stopped then). */
  readonly exit: { readonly at: number; readonly code: number | null; readonly signal: string | null } | undefined;
  /** The end of its standard error, for the evidence of a client that failed oddly. */
  readonly stderr: string;
}

/** What a row says, with the evidence in words and numbers. */
export interface Judgement {
  readonly verdict: Verdict;
  readonly evidence: string;
  readonly numbers?: Readonly<Record<string, number | string | boolean>>;
}

/** What a row's server answers and injects, in one era. */
export interface RowServer {
  /** The calls the row's golden answers (the plan's calls, by name and arguments). */
  readonly calls: readonly GoldenCall[];
  readonly chunking?: ChunkingOptions;
  readonly faults?: ReplayFaults;
}

/** One row of the client check: declared once, in its family's file under rows/. */
export interface ClientRow {
  readonly id: string;
  /** The eras the row has a meaning in. */
  readonly eras: readonly Era[];
  /** Only with `--long`. */
  readonly long?: boolean;
  /** Longest the client is given before it is stopped and judged as it is (a hang). */
  readonly budgetMs: number;
  /** How long the server keeps watching after the client exited (a cancel arrives late). @default 100 */
  readonly afterExitMs?: number;
  server(era: Era): RowServer;
  plan(era: Era): ClientPlan;
  judge(run: RowRun): Judgement;
}

/** One row's verdict in one era. */
export interface ClientRowResult {
  readonly property: string;
  readonly era: Era;
  readonly verdict: Verdict;
  readonly evidence: string;
  readonly numbers: Readonly<Record<string, number | string | boolean>>;
  /** The client's run time in ms, from its start to its exit (or to its stop). */
  readonly ms: number;
  /** What the server saw and what the client printed, in ms from the client's start. */
  readonly timeline: { readonly server: readonly RowMark[]; readonly client: readonly RowMark[] };
}

/** One moment of a row's evidence: ms from the client's start, what kind, and what happened. */
export interface RowMark {
  readonly ms: number;
  readonly kind: 'request' | 'progress' | 'result' | 'error' | 'cancel' | 'other';
  readonly title: string;
}

/** The client check's report: the gateway report's shape, each row with its era. */
export interface ClientCheckReport {
  readonly client: string;
  readonly eras: readonly Era[];
  readonly startedAt: string;
  readonly durationMs: number;
  readonly pass: boolean;
  readonly results: readonly ClientRowResult[];
  readonly only?: readonly string[];
}
