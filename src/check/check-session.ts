import { FrameSink } from '../record/frame-sink.js';
import { openTarget, type RecordTarget } from '../record/open-target.js';
import { type ClientCall, type LiveArrival, openSessionClient } from '../record/session-client.js';
import type { WatchedStream } from '../record/wire-session.js';
import type { AuditEntry } from '../server/audit-log.js';
import { referenceParamHeaders } from '../server/reference-server.js';
import type { Era, Frame } from '../transcript/frame.js';
import { DEFAULT_PROTOCOL_VERSION } from '../version.js';
import { auditEntriesOf } from './audit.js';

/**
 * One call made on a {@link CheckSession}: the session client's call (its tool, arguments, id and
 * token; cancel after progress k or after ms, over the era's cancel; a slow reader), without what the
 * check session sets itself (the time read after a cancel, the cancel's reason, no reconnect).
 */
export type CallPlan = Pick<
  ClientCall,
  'tool' | 'arguments' | 'id' | 'token' | 'cancelAfterProgress' | 'cancelAfterMs' | 'readDelayMs'
>;

/** What the client saw of one call. */
export interface CallSeen {
  readonly plan: CallPlan;
  readonly startedEpochMs: number;
  readonly progress: readonly LiveArrival[];
  readonly response?: LiveArrival;
  /** Messages for the call that arrived after the cancellation was sent. */
  readonly afterCancel: readonly LiveArrival[];
  /** Ms from the request to the cancel (`notifications/cancelled`, or the close of its stream in 2026-07-28). */
  readonly cancelAtMs?: number;
  /** Why the call ended without a response (timeout, closed stream), if it did. */
  readonly error?: string;
}

/** One client session on the gateway: initialize once, then any number of interleaved calls. */
export interface CheckSession {
  readonly transport: 'http' | 'stdio';
  /** The era the session speaks: `modern` has no handshake and no GET stream, and cancels by closing the call's stream. */
  readonly era: Era;
  call(plan: CallPlan): Promise<CallSeen>;
  /**
   * Opens the standalone GET stream (HTTP) in the background; `status` stays 0 until headers arrive.
   * `lastEventId` sends `Last-Event-ID` with it (a resumption request).
   */
  openGetStream(options?: { readonly lastEventId?: string }): WatchedStream;
  /** The upstream's audit log, read through the gateway on this session (`audit_log`). */
  auditThrough(): Promise<AuditEntry[]>;
  /** Every frame of the client→gateway leg so far. */
  frames(): readonly Frame[];
  close(): Promise<void>;
}

/** How long to keep reading after a cancel, to catch what must not come. */
const AFTER_CANCEL_MS = 400;

/**
 * Opens one session on `target` (an HTTP endpoint, or a stdio command: one gateway process) with
 * the session client, and initializes it. Several calls may run at once on it; each stream is read
 * on the wire. In the modern era (`era: 'modern'`, HTTP only) nothing is initialized: each call
 * carries the per-request envelope (and so its `Mcp-*` headers), and a cancel closes the call's
 * stream. Beyond what the recorder does, the check reads on after a cancel to catch what must not
 * come, can cancel a number of ms after sending, reads slowly, and opens the GET stream.
 */
export async function openCheckSession(
  target: RecordTarget,
  timeoutMs: number,
  era: Era = 'legacy',
): Promise<CheckSession> {
  const modern = era === 'modern';
  const sink = new FrameSink();
  const opened = openTarget(target, { sink, protocolVersion: DEFAULT_PROTOCOL_VERSION, timeoutMs });
  // The check's client answers nothing: its tools ask the client nothing, and a gateway's request is left alone.
  const client = openSessionClient(opened.session, {
    era,
    timeoutMs,
    scenario: { tool: 'check' },
    answerServer: false,
    settleMs: 0,
  });
  // The modern era has no handshake: every request carries the envelope instead.
  if (!modern) {
    try {
      await client.initialize('check-init', (detail) => `initialize through the gateway failed: ${detail}.`);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
  }

  const call = async (plan: CallPlan): Promise<CallSeen> => {
    const seen = await client.call({
      tool: plan.tool,
      arguments: plan.arguments,
      id: plan.id,
      ...(plan.token !== undefined && { token: plan.token }),
      ...(plan.cancelAfterProgress !== undefined && { cancelAfterProgress: plan.cancelAfterProgress }),
      ...(plan.cancelAfterMs !== undefined && { cancelAfterMs: plan.cancelAfterMs }),
      ...(plan.readDelayMs !== undefined && { readDelayMs: plan.readDelayMs }),
      afterCancelMs: AFTER_CANCEL_MS,
      cancelReason: 'mcp-golden check: cancel',
      reconnect: false,
      scenario: { tool: plan.tool },
      // What a conforming 2026-07-28 client sends: the check's upstream marks its tools' `tag` with
      // `x-mcp-header: Tag` and refuses a call without it (400, -32020), as an SDK v2 server does.
      paramHeaders: referenceParamHeaders(plan.tool, true),
    });
    const failed = seen.end === 'failed' || seen.end === 'broken';
    return {
      plan,
      startedEpochMs: seen.startedEpochMs,
      progress: seen.progress,
      afterCancel: seen.afterCancel,
      ...(seen.response && { response: seen.response }),
      ...(seen.cancelAtMs !== undefined && { cancelAtMs: seen.cancelAtMs }),
      ...(failed && {
        error: String(seen.error instanceof Error ? seen.error.message : seen.error).split('\n')[0] as string,
      }),
    };
  };

  return {
    transport: opened.transport,
    era,
    call,
    openGetStream(options = {}) {
      // The modern era has no GET stream; stdio has no GET at all.
      if (modern || !opened.session.watch) return { status: 0, messages: [] };
      return opened.session.watch(options);
    },
    async auditThrough() {
      const seen = await call({ tool: 'audit_log', arguments: {}, id: `check-audit-${Date.now()}` });
      return auditEntriesOf(seen.response?.message);
    },
    frames: () => sink.snapshot(),
    async close() {
      await client.close().catch(() => undefined);
    },
  };
}
