import { setTimeout as sleep } from 'node:timers/promises';
import { GoldenError } from '../errors.js';
import { FrameSink, sseBlocksOfRead } from '../record/frame-sink.js';
import { openHttpSession } from '../record/http-wire-session.js';
import { withEnvelope } from '../record/modern-era.js';
import type { RecordTarget } from '../record/record-call.js';
import { type FetchLike, recordingFetch } from '../record/recording-fetch.js';
import { openStdioSession } from '../record/stdio-wire-session.js';
import type { CallStream, WireSession } from '../record/wire-session.js';
import type { AuditEntry } from '../server/audit-log.js';
import { referenceToolList } from '../server/reference-server.js';
import type { Era, Frame } from '../transcript/frame.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { isResponse, parseJsonRpc } from '../transcript/json-rpc.js';
import { modernHeaders, paramHeadersOf } from '../transcript/modern-envelope.js';
import { SseParser } from '../transcript/sse.js';
import { DEFAULT_PROTOCOL_VERSION, VERSION } from '../version.js';
import { auditEntriesOf } from './audit.js';

/** One call made on a {@link CheckSession}. */
export interface CallPlan {
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly id: string | number;
  readonly token?: string | number;
  /** Send `notifications/cancelled` once this many progress notifications arrived. */
  readonly cancelAfterProgress?: number;
  /** Send `notifications/cancelled` this many ms after the request, progress or not. */
  readonly cancelAfterMs?: number;
  /** Read nothing for this long after sending the request (a slow client: the gateway meets backpressure). */
  readonly readDelayMs?: number;
}

/** A message as the client received it, with its arrival time in ms after the request was sent. */
export interface Arrival {
  readonly message: JsonRpcMessage;
  readonly atMs: number;
}

/** What the client saw of one call. */
export interface CallSeen {
  readonly plan: CallPlan;
  readonly startedEpochMs: number;
  readonly progress: readonly Arrival[];
  readonly response?: Arrival;
  /** Messages for the call that arrived after the cancellation was sent. */
  readonly afterCancel: readonly Arrival[];
  readonly cancelledAtMs?: number;
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
  openGetStream(options?: { lastEventId?: string }): { status: number; messages: Arrival[] };
  /** The upstream's audit log, read through the gateway on this session (`audit_log`). */
  auditThrough(): Promise<AuditEntry[]>;
  /** Every frame of the client→gateway leg so far. */
  frames(): readonly Frame[];
  close(): Promise<void>;
}

/**
 * The `Mcp-Param-*` headers a conforming 2026-07-28 client sends with a call, learnt from the tools
 * the check's upstream lists (its `tag` is marked `x-mcp-header: Tag`): the upstream refuses a call
 * without them (400, -32020), as an SDK v2 server does.
 */
function paramHeadersFor(message: JsonRpcMessage, tool: string): Record<string, string> {
  const declared = paramHeadersOf(referenceToolList({ checkTools: true }).find((t) => t.name === tool));
  const all = modernHeaders(withEnvelope(message, { tool }), declared);
  return Object.fromEntries(Object.entries(all).filter(([name]) => name.startsWith('mcp-param-')));
}

/** How long to keep reading after a cancel, to catch what must not come. */
const AFTER_CANCEL_MS = 400;

/**
 * Opens one session on `target` (an HTTP endpoint, or a stdio command: one gateway process) and
 * initializes it. Several calls may run at once on it; each stream is read on the wire. In the
 * modern era (`era: 'modern'`, HTTP only) nothing is initialized: each call carries the recorder's
 * per-request envelope (and so its `Mcp-*` headers), and a cancel closes the call's stream.
 */
export async function openCheckSession(
  target: RecordTarget,
  timeoutMs: number,
  era: Era = 'legacy',
): Promise<CheckSession> {
  const modern = era === 'modern';
  const sink = new FrameSink();
  let session: WireSession;
  let url: string | undefined;
  let sessionId: string | undefined;
  const getStreams: AbortController[] = [];
  if (typeof target === 'string' || target instanceof URL || 'url' in target) {
    url = typeof target === 'string' || target instanceof URL ? String(target) : target.url;
    const tap = recordingFetch(sink);
    const capture: FetchLike = async (input, init) => {
      const response = await tap(input, init);
      sessionId = response.headers.get('mcp-session-id') ?? sessionId;
      return response;
    };
    session = openHttpSession(url, { fetch: capture, protocolVersion: DEFAULT_PROTOCOL_VERSION, timeoutMs });
  } else {
    session = openStdioSession(target, sink);
  }
  // The modern era has no handshake: every request carries the envelope instead.
  if (!modern) {
    const init = await session.request({
      jsonrpc: '2.0',
      id: 'check-init',
      method: 'initialize',
      params: {
        protocolVersion: DEFAULT_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'mcp-golden', version: VERSION },
      },
    });
    let answer: JsonRpcMessage | undefined;
    for (
      let next = await init.next(timeoutMs);
      next && !answer;
      next = answer ? undefined : await init.next(timeoutMs)
    ) {
      if (isResponse(next.message)) answer = next.message;
    }
    if (!answer || !('result' in answer)) {
      await session.close().catch(() => undefined);
      throw new GoldenError(
        'E_TARGET',
        `initialize through the gateway failed: ${JSON.stringify(answer?.error ?? 'no answer')}.`,
      );
    }
    if (session.transport === 'http') await init.drop();
    await session.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  const call = async (plan: CallPlan): Promise<CallSeen> => {
    const params: Record<string, unknown> = { name: plan.tool, arguments: plan.arguments };
    if (plan.token !== undefined) params._meta = { progressToken: plan.token };
    const startedEpochMs = Date.now();
    const t0 = performance.now();
    const at = (): number => performance.now() - t0;
    const progress: Arrival[] = [];
    const afterCancel: Arrival[] = [];
    let response: Arrival | undefined;
    let cancelledAtMs: number | undefined;
    let error: string | undefined;
    let stream: CallStream | undefined;
    const cancel = async (): Promise<void> => {
      if (cancelledAtMs !== undefined) return;
      cancelledAtMs = at();
      // The modern era cancels by closing the call's stream (once its headers came, if they had not yet).
      if (modern) {
        if (stream) await stream.close();
        else void requested.then((late) => late.close()).catch(() => undefined);
        return;
      }
      await session.notify({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: plan.id, reason: 'mcp-golden check: cancel' },
      });
    };
    // Timed from sending: a gateway that holds back even the response headers must not delay the cancel.
    const timer =
      plan.cancelAfterMs !== undefined
        ? setTimeout(() => void cancel().catch(() => {}), plan.cancelAfterMs)
        : undefined;
    const plain: JsonRpcMessage = { jsonrpc: '2.0', id: plan.id, method: 'tools/call', params };
    const requested = modern
      ? session.request(withEnvelope(plain, { tool: plan.tool }), paramHeadersFor(plain, plan.tool))
      : session.request(plain);
    const failed = (why: string): CallSeen => ({
      plan,
      startedEpochMs,
      progress,
      afterCancel,
      error: why,
      ...(cancelledAtMs !== undefined && { cancelledAtMs }),
    });
    try {
      // A timed cancel stops the wait too: a gateway may hold back even the headers of a cancelled call.
      stream =
        plan.cancelAfterMs === undefined
          ? await requested
          : await Promise.race([requested, sleep(plan.cancelAfterMs + AFTER_CANCEL_MS + 200).then(() => undefined)]);
    } catch (e) {
      if (timer) clearTimeout(timer);
      return failed((e as Error).message.split('\n')[0] as string);
    }
    if (!stream) {
      requested.then((late) => late.drop()).catch(() => undefined);
      return failed('no response headers arrived for the call, before or after the cancel');
    }
    if (plan.readDelayMs) await sleep(plan.readDelayMs);
    try {
      for (;;) {
        // After a cancel, wait a while only to catch what must not come.
        const wait =
          cancelledAtMs !== undefined
            ? Math.max(0, cancelledAtMs + AFTER_CANCEL_MS - at())
            : plan.cancelAfterMs !== undefined
              ? Math.min(timeoutMs, Math.max(1, plan.cancelAfterMs + AFTER_CANCEL_MS - at()))
              : timeoutMs;
        if (cancelledAtMs !== undefined && wait === 0) break;
        const next = await stream.next(wait).catch((e: unknown) => {
          const cancelling = cancelledAtMs !== undefined || plan.cancelAfterMs !== undefined;
          if (cancelling && e instanceof GoldenError && e.code === 'E_TIMEOUT') return undefined;
          throw e;
        });
        if (!next) break;
        const arrival = { message: next.message, atMs: at() };
        if (cancelledAtMs !== undefined) afterCancel.push(arrival);
        else if (isResponse(next.message)) response = arrival;
        else if (next.message.method === 'notifications/progress') progress.push(arrival);
        if (response) break;
        if (plan.cancelAfterProgress !== undefined && progress.length === plan.cancelAfterProgress) await cancel();
      }
    } catch (e) {
      error = (e as Error).message.split('\n')[0];
    } finally {
      if (timer) clearTimeout(timer);
      await stream.drop().catch(() => undefined);
    }
    return {
      plan,
      startedEpochMs,
      progress,
      afterCancel,
      ...(response && { response }),
      ...(cancelledAtMs !== undefined && { cancelledAtMs }),
      ...(error !== undefined && { error }),
    };
  };

  return {
    transport: session.transport,
    era,
    call,
    openGetStream(options = {}) {
      const opened: { status: number; messages: Arrival[] } = { status: 0, messages: [] };
      if (!url || modern) return opened;
      const controller = new AbortController();
      getStreams.push(controller);
      const t0 = performance.now();
      // Not awaited: a gateway may hold even the headers back; the row reads what arrived, when it judges.
      void (async () => {
        const response = await recordingFetch(sink)(url, {
          method: 'GET',
          headers: {
            accept: 'text/event-stream',
            'mcp-protocol-version': DEFAULT_PROTOCOL_VERSION,
            ...(sessionId !== undefined && { 'mcp-session-id': sessionId }),
            ...(options.lastEventId !== undefined && { 'last-event-id': options.lastEventId }),
          },
          signal: controller.signal,
        });
        opened.status = response.status;
        if (response.status !== 200 || !response.body) return;
        const parser = new SseParser();
        const reader = response.body.getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          // The tap cut this read into blocks already: take them rather than parse it again.
          for (const block of sseBlocksOfRead(value) ?? parser.push(value)) {
            if (!block.data) continue;
            const message = parseJsonRpc(block.data);
            if (message) opened.messages.push({ message, atMs: performance.now() - t0 });
          }
        }
      })().catch(() => undefined);
      return opened;
    },
    async auditThrough() {
      const seen = await call({ tool: 'audit_log', arguments: {}, id: `check-audit-${Date.now()}` });
      return auditEntriesOf(seen.response?.message);
    },
    frames: () => sink.snapshot(),
    async close() {
      for (const controller of getStreams) controller.abort();
      await session.close().catch(() => undefined);
    },
  };
}
