import type { JsonRpcMessage } from '../transcript/frame-content.js';
import {
  cancelledRequestId,
  isResponse as isJsonRpcResponse,
  requestProgressToken,
  resultOf,
} from '../transcript/json-rpc.js';
import type { ChunkingOptions } from './chunking.js';
import { jsonRpcError } from './json-rpc-error.js';
import { advertisedCapabilities, LIVE_DEFAULT_REMARK, liveDefaultResult, sessionSource } from './live-defaults.js';
import { LiveEvent, liveFill } from './live-event.js';
import {
  checkMatchMode,
  chooseExchange,
  explainUnmatched,
  type MatchMode,
  tokenRemark,
  type UnmatchedError,
} from './matching.js';
import { type Pace, paceInOrder, runLater } from './pacing.js';
import {
  buildReplayPlan,
  type GoldenInput,
  type ReplayEvent,
  type ReplayExchange,
  type ReplayPlan,
} from './replay-plan.js';
import { type ReplayReport, type ReplayReportEntry, reportUnmatched, type UnmatchedMode } from './replay-report.js';
import type { LiveStamp } from './stamp.js';
import { stampTemplate } from './stamp-template.js';

/** Options shared by every replay transport. */
export interface ReplayOptions {
  /** @default 'recorded' */
  readonly pace?: Pace;
  /**
   * What to do with a request no golden recorded. Every mode answers it with a JSON-RPC error
   * naming the closest recorded request and lists it in `report()`; `'warn'` also prints it, and a
   * function is called with it. @default 'error'
   */
  readonly onUnmatchedRequest?: UnmatchedMode;
  /** Adversarial re-chunking of SSE events. @default none: byte-exact */
  readonly chunking?: ChunkingOptions;
  /**
   * Whether a request with a progress token may be answered from a recording made without one
   * (`'ignore-token'`, with no progress, as a live server answers) or not (`'strict'`).
   * @default 'ignore-token'
   */
  readonly match?: MatchMode;
}

/** Most report entries kept: a flood of requests must not grow the replayer without bound. */
const REPORT_LIMIT = 10_000;
/** Most sessions tracked at once; the oldest is ended when a new one would pass it. */
export const SESSION_LIMIT = 10_000;

/** A client connection as the engine sees it: an HTTP session (or none), or one stdio peer. */
export interface ReplaySession {
  /** HTTP `mcp-session-id` handed out by the adapter; `null` on stdio and for sessionless HTTP. */
  id: string | null;
  readonly transport: 'http' | 'stdio';
  /** Protocol version answered to this session's `initialize`. */
  version: string | undefined;
  readonly calls: ReplayCall[];
  /** Where server-initiated messages go; until set, they wait in `pending`. */
  push: ((event: ReplayEvent) => void) | undefined;
  readonly pending: ReplayEvent[];
  readonly timers: Set<() => void>;
}

/** One request being answered: the recorded exchange with the live id and token stamped in. */
export interface ReplayCall {
  readonly exchange: ReplayExchange;
  readonly liveId: unknown;
  /** The recorded answer, stamped; progress left out when the live request had no token. */
  readonly events: readonly LiveEvent[];
  /** Stops the remaining deliveries. */
  stop: (() => void) | undefined;
  finished: boolean;
  cancelled: boolean;
}

/** How the engine answers one JSON-RPC message. */
export type ReplayAnswer =
  | { readonly kind: 'call'; readonly call: ReplayCall }
  | { readonly kind: 'unmatched'; readonly text: string; readonly error: UnmatchedError }
  | { readonly kind: 'accepted'; readonly exchange: ReplayExchange | undefined };

const isResponse = (message: JsonRpcMessage | undefined): boolean =>
  message !== undefined && isJsonRpcResponse(message);

/**
 * The one replay engine, shared by every transport: matches live JSON-RPC messages to recorded
 * exchanges, stamps the live id and progress token into the recorded frames, paces them, answers
 * the handshake (version negotiation, `ping`), replays server-initiated messages, and reports.
 * The HTTP, stdio and msw adapters only frame what it emits.
 */
export class ReplayEngine {
  readonly plan: ReplayPlan;
  private readonly match: MatchMode;
  private readonly sessions = new Set<ReplaySession>();
  private readonly received: ReplayReportEntry[] = [];
  private closed = false;

  constructor(
    goldens: readonly GoldenInput[],
    readonly options: ReplayOptions = {},
  ) {
    this.match = checkMatchMode(options.match);
    this.plan = buildReplayPlan(goldens);
  }

  /** Everything received so far, unmatched requests listed separately. */
  report(): ReplayReport {
    const requests = [...this.received];
    return { requests, unmatched: requests.filter((r) => r.matched === null && r.error !== undefined) };
  }

  /** Stops every timer of every session. */
  close(): void {
    this.closed = true;
    for (const session of this.sessions) this.endSession(session);
    this.sessions.clear();
  }

  /** A new client connection. */
  openSession(transport: 'http' | 'stdio'): ReplaySession {
    const session: ReplaySession = {
      id: null,
      transport,
      version: undefined,
      calls: [],
      push: undefined,
      pending: [],
      timers: new Set(),
    };
    this.sessions.add(session);
    if (this.sessions.size > SESSION_LIMIT) {
      const oldest = this.sessions.values().next().value as ReplaySession;
      this.endSession(oldest);
    }
    return session;
  }

  /** Stops everything still running for a session (HTTP DELETE, stdin closed). */
  endSession(session: ReplaySession): void {
    for (const call of session.calls) this.cancel(call);
    for (const stop of session.timers) stop();
    session.timers.clear();
    session.push = undefined;
    this.sessions.delete(session);
  }

  /** Delay for a recorded offset under the pace option, in ms. */
  delayMs(offsetUs: number): number {
    const pace = this.options.pace ?? 'recorded';
    if (pace === 'instant') return 0;
    const scale = pace === 'recorded' ? 1 : pace.scale;
    return (offsetUs / 1000) * scale;
  }

  /** Lists a request in the report. */
  note(
    session: ReplaySession | null,
    httpMethod: string,
    message: JsonRpcMessage | undefined,
    match: ReplayExchange | undefined,
    error?: string,
    remark?: string,
  ): void {
    // shift(), not splice(0, 1): V8 drops the first element in place instead of moving 10,000.
    if (this.received.length >= REPORT_LIMIT) this.received.shift();
    this.received.push({
      session: session?.id ?? null,
      httpMethod,
      ...(typeof message?.method === 'string' && { method: message.method }),
      ...(message && 'id' in message && { id: message.id }),
      matched: match ? `${match.source} #${match.exchange}` : null,
      ...(error !== undefined && { error }),
      ...(remark !== undefined && { remark }),
    });
  }

  /** Answers one JSON-RPC message (request, notification or response) received on `session`. */
  receive(session: ReplaySession, message: JsonRpcMessage, httpMethod = 'POST'): ReplayAnswer {
    const label = session.transport === 'stdio' ? 'STDIO' : httpMethod;
    if (typeof message.method !== 'string' || !('id' in message)) {
      const exchange = chooseExchange(this.plan.exchanges, httpMethod, message, session.transport);
      this.note(session, label, message, exchange);
      if (message.method === 'notifications/cancelled') {
        const requestId = cancelledRequestId(message);
        const call = session.calls.find((c) => c.liveId === requestId && !c.finished);
        if (call) this.cancel(call);
      }
      return { kind: 'accepted', exchange };
    }
    const exchange = chooseExchange(this.plan.exchanges, httpMethod, message, session.transport, this.match);
    if (!exchange) return this.unanswered(session, label, message);
    this.note(session, label, message, exchange, undefined, tokenRemark(exchange, message));
    const call = this.startCall(session, exchange, message);
    if (message.method === 'initialize') this.startSession(session, call);
    return { kind: 'call', call };
  }

  /**
   * Schedules `deliver(i)` for each offset (µs) in order under the pace option, then `done`;
   * `flush` after each batch of deliveries due together.
   */
  play(
    call: ReplayCall,
    offsetsUs: readonly number[],
    deliver: (index: number) => void,
    done: () => void,
    flush?: () => void,
  ): void {
    if (this.closed) return;
    call.stop = paceInOrder(
      offsetsUs.length,
      (i) => this.delayMs(offsetsUs[i] as number),
      deliver,
      () => {
        call.stop = undefined;
        done();
      },
      flush,
    );
  }

  /** Runs `run` after a recorded offset (µs) under the pace option, unless the session ends first. */
  later(session: ReplaySession | null, offsetUs: number, run: () => void): void {
    if (this.closed) return;
    const stop = runLater(this.delayMs(offsetUs), () => {
      session?.timers.delete(stop);
      run();
    });
    session?.timers.add(stop);
  }

  /** Stops a call's remaining deliveries. */
  cancel(call: ReplayCall): void {
    call.cancelled = true;
    call.stop?.();
    call.stop = undefined;
  }

  private unanswered(session: ReplaySession, label: string, message: JsonRpcMessage): ReplayAnswer {
    // What any live server answers without a recording (`ping`, an advertised capability's empty list).
    const result = liveDefaultResult(message, advertisedCapabilities(this.plan.exchanges, sessionSource(session)));
    if (result !== undefined) {
      this.note(session, label, message, undefined, undefined, LIVE_DEFAULT_REMARK);
      const exchange = syntheticExchange(
        session,
        message,
        `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${JSON.stringify(result)}}`,
      );
      return { kind: 'call', call: this.startCall(session, exchange, message) };
    }
    const error = explainUnmatched(this.plan.exchanges, message);
    this.note(session, label, message, undefined, error.message);
    reportUnmatched(this.options.onUnmatchedRequest, { httpMethod: label, message, error: error.message });
    return { kind: 'unmatched', text: jsonRpcError(message.id, error.code, error.message, error.data), error };
  }

  private startCall(session: ReplaySession, exchange: ReplayExchange, message: JsonRpcMessage): ReplayCall {
    const token = requestProgressToken(message);
    const stamp: LiveStamp = {
      idJson: JSON.stringify(message.id),
      ...(token.present && { tokenJson: JSON.stringify(token.token) }),
    };
    // The plan found where the id (answers only) and the token go in each frame: only they are new.
    const fill = liveFill(stamp);
    // The live server sends no progress for a request without a token.
    const events: LiveEvent[] = [];
    for (const event of exchange.events) {
      if (token.present || event.message?.method !== 'notifications/progress') events.push(new LiveEvent(event, fill));
    }
    const call: ReplayCall = {
      exchange,
      liveId: message.id,
      events,
      stop: undefined,
      finished: false,
      cancelled: false,
    };
    session.calls.push(call);
    // A long session must not keep every finished call (they are only needed for resumption).
    if (session.calls.length > 64) {
      const oldest = session.calls.findIndex((c) => c.finished);
      if (oldest >= 0) session.calls.splice(oldest, 1);
    }
    return call;
  }

  /** After `initialize`: the negotiated version, and the golden's server-initiated messages. */
  private startSession(session: ReplaySession, call: ReplayCall): void {
    const answer = call.events.find((e) => isResponse(e.message))?.message;
    const version = resultOf(answer)?.protocolVersion;
    session.version = typeof version === 'string' ? version : call.exchange.protocolVersion;
    const pushes = this.plan.pushes.get(call.exchange.source) ?? [];
    if (pushes.length === 0 || this.closed) return;
    const stop = paceInOrder(
      pushes.length,
      (i) => this.delayMs((pushes[i] as ReplayEvent).offsetUs),
      (i) => {
        const event = pushes[i] as ReplayEvent;
        if (session.push) session.push(event);
        else session.pending.push(event);
      },
      () => session.timers.delete(stop),
    );
    session.timers.add(stop);
  }
}

/** An exchange the engine makes up (a `ping` answer): one JSON message, sent at once. */
function syntheticExchange(session: ReplaySession, message: JsonRpcMessage, text: string): ReplayExchange {
  const raw = session.transport === 'stdio' ? `${text}\n` : text;
  const kind = session.transport === 'stdio' ? 'stdio' : 'json';
  // Its answer already carries the live id: no hole is looked for in it.
  return {
    exchange: 0,
    source: 'mcp-golden replay',
    transport: session.transport,
    protocolVersion: session.version ?? '',
    httpMethod: 'POST',
    headers: {},
    message,
    key: '',
    hasToken: false,
    headOffsetUs: 0,
    events: [{ offsetUs: 0, raw, kind, message: JSON.parse(text), template: stampTemplate(raw, kind, false) }],
    end: 'complete',
    bodyKind: session.transport === 'stdio' ? 'stdio' : 'json',
  };
}
