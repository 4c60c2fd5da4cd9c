import type { Writable } from 'node:stream';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import {
  cancelledRequestId,
  isResponse as isJsonRpcResponse,
  requestProgressToken,
  resultOf,
} from '../transcript/json-rpc.js';
import type { ChunkingOptions } from './chunking.js';
import { jsonRpcErrorText } from './json-rpc-error.js';
import { type RawRequestValues, rawRequestValues } from './json-text.js';
import { advertisedCapabilities, LIVE_DEFAULT_REMARK, liveDefaultResult, sessionSource } from './live-defaults.js';
import { answerEvents, type LiveEvent, type LiveFill, liveFill, StampedCall } from './live-event.js';
import {
  checkMatchMode,
  chooseExchange,
  explainUnmatched,
  type MatchMode,
  matchRemark,
  type UnmatchedError,
} from './matching.js';
import { checkPace } from './pace-option.js';
import { type Pace, type Pacer, realPacer } from './pacing.js';
import {
  buildReplayPlan,
  type GoldenInput,
  type ReplayEvent,
  type ReplayExchange,
  type ReplayPlan,
} from './replay-plan.js';
import { type ReplayReport, type ReplayReportEntry, reportUnmatched, type UnmatchedMode } from './replay-report.js';
import { mixedServersWarning } from './server-mix.js';
import { type LiveStamp, stampTemplate } from './stamp-template.js';
import { TaskPolls } from './task-polls.js';

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
  /** Where the replay's notes go (`'warn'` lines, goldens from different servers). @default process.stderr */
  readonly log?: Pick<Writable, 'write'>;
}

/** Most report entries kept: a flood of requests must not grow the replayer without bound. */
const REPORT_LIMIT = 10_000;
/** Most calls a session keeps; beyond it the oldest finished or cancelled one is let go. */
export const CALL_LIMIT = 64;
/** Most HTTP sessions kept at once; the oldest is ended when a new one would pass it. */
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
  /** The recorded events it answers with (progress left out when the live request had no token), shared by the exchange's calls. */
  readonly recorded: readonly ReplayEvent[];
  /** The live id and token stamped into them. */
  readonly fill: LiveFill;
  /** The recorded answer, stamped: made on first read (a stream of the recorded framing sends `recorded` with `fill`). */
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
  private readonly matchMode: MatchMode;
  private readonly sessions = new Set<ReplaySession>();
  private readonly received: ReplayReportEntry[] = [];
  /** A recorded task's polls, served in order (tasks extension). */
  private readonly taskPolls = new TaskPolls();
  /** Delays by shared (frozen) list of offsets; a list made for one call is not kept. */
  private readonly delays = new WeakMap<readonly number[], readonly number[]>();
  private closed = false;

  /** @param pacer the clock deliveries are paced on; a test passes one on a fake clock */
  constructor(
    goldens: readonly GoldenInput[],
    readonly options: ReplayOptions = {},
    private readonly pacer: Pacer = realPacer,
  ) {
    checkPace(options.pace);
    this.matchMode = checkMatchMode(options.match);
    this.plan = buildReplayPlan(goldens);
    const mixed = mixedServersWarning(this.plan);
    if (mixed !== undefined) (options.log ?? process.stderr).write(`${mixed}\n`);
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
    // Not bounded here: the adapter that opens sessions bounds them (HTTP at SESSION_LIMIT, ending
    // their streams with them; stdio has one), so no session is ended behind its adapter's back.
    this.sessions.add(session);
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

  /**
   * Answers one JSON-RPC message (request, notification or response) received on `session`;
   * `text` is the message as the client wrote it, whose id and token the answer carries verbatim.
   */
  receive(session: ReplaySession, message: JsonRpcMessage, httpMethod = 'POST', text?: string): ReplayAnswer {
    const label = session.transport === 'stdio' ? 'STDIO' : httpMethod;
    if (typeof message.method !== 'string' || !('id' in message)) {
      const exchange = chooseExchange(this.plan.exchanges, httpMethod, message, session.transport);
      this.note(session, label, message, exchange);
      if (message.method === 'notifications/cancelled') this.cancelNamed(session, cancelledRequestId(message));
      return { kind: 'accepted', exchange };
    }
    const exchange =
      this.taskPolls.choose(this.plan.exchanges, httpMethod, message) ??
      chooseExchange(this.plan.exchanges, httpMethod, message, session.transport, this.matchMode);
    const live = liveValues(message, text);
    if (!exchange) return this.unanswered(session, label, message, live);
    this.taskPolls.started(exchange);
    this.note(session, label, message, exchange, undefined, matchRemark(exchange, message));
    const call = this.startCall(session, exchange, message, live);
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
    call.stop = this.pacer.paceInOrder(
      offsetsUs.length,
      this.delaysOf(offsetsUs),
      deliver,
      () => {
        call.stop = undefined;
        done();
      },
      flush,
    );
  }

  /** Delays (ms) of offsets (µs), once per list `streamOffsets` shares: read in place, no closure per stream. */
  private delaysOf(offsetsUs: readonly number[]): readonly number[] {
    if (!Object.isFrozen(offsetsUs)) return offsetsUs.map((offset) => this.delayMs(offset));
    let delays = this.delays.get(offsetsUs);
    if (!delays) {
      delays = offsetsUs.map((offset) => this.delayMs(offset));
      this.delays.set(offsetsUs, delays);
    }
    return delays;
  }

  /** Runs `run` after a recorded offset (µs) under the pace option, unless the session ends first. */
  later(session: ReplaySession | null, offsetUs: number, run: () => void): void {
    if (this.closed) return;
    const stop = this.pacer.runLater(this.delayMs(offsetUs), () => {
      session?.timers.delete(stop);
      run();
    });
    session?.timers.add(stop);
  }

  /**
   * Cancels the running call a `notifications/cancelled` names. Only one that the id names alone:
   * without a session (a stateless golden) two clients may both be running id 1, and a cancel
   * cannot say whose it is, so it cancels neither (as a stateless server, which cannot route it
   * either) rather than stopping another client's call.
   */
  private cancelNamed(session: ReplaySession, requestId: unknown): void {
    let named: ReplayCall | undefined;
    for (const call of session.calls) {
      if (call.liveId !== requestId || call.finished || call.cancelled) continue;
      if (named) return;
      named = call;
    }
    if (named) this.cancel(named);
  }

  /** Which recorded exchange would answer `message` on `transport`, without answering it. */
  match(message: JsonRpcMessage, transport: 'http' | 'stdio', httpMethod = 'POST'): ReplayExchange | undefined {
    return chooseExchange(this.plan.exchanges, httpMethod, message, transport, this.matchMode);
  }

  /** Stops a call's remaining deliveries. */
  cancel(call: ReplayCall): void {
    call.cancelled = true;
    call.stop?.();
    call.stop = undefined;
  }

  private unanswered(session: ReplaySession, label: string, message: JsonRpcMessage, live: LiveStamp): ReplayAnswer {
    // What any live server answers without a recording (`ping`, an advertised capability's empty list).
    const result = liveDefaultResult(message, advertisedCapabilities(this.plan.exchanges, sessionSource(session)));
    if (result !== undefined) {
      this.note(session, label, message, undefined, undefined, LIVE_DEFAULT_REMARK);
      const exchange = syntheticExchange(
        session,
        message,
        `{"jsonrpc":"2.0","id":${live.idJson},"result":${JSON.stringify(result)}}`,
      );
      return { kind: 'call', call: this.startCall(session, exchange, message, live) };
    }
    const error = explainUnmatched(this.plan.exchanges, message);
    this.note(session, label, message, undefined, error.message);
    reportUnmatched(this.options, { httpMethod: label, message, error: error.message });
    const text = jsonRpcErrorText(live.idJson ?? 'null', error.code, error.message, error.data);
    return { kind: 'unmatched', text, error };
  }

  private startCall(
    session: ReplaySession,
    exchange: ReplayExchange,
    message: JsonRpcMessage,
    live: LiveStamp,
  ): ReplayCall {
    // The plan found where the id (answers only) and the token go in each frame: only they are new.
    const fill = liveFill(exchange.tokenJson === undefined ? live : { ...live, recordedTokenJson: exchange.tokenJson });
    // The live server sends no progress for a request without a token.
    const recorded = answerEvents(exchange, live.tokenJson !== undefined);
    // A session keeps its calls (for resumption): a call holds no object per frame unless read.
    const call: ReplayCall = new StampedCall(exchange, message.id, recorded, fill);
    session.calls.push(call);
    // A long session must not keep every finished or cancelled call (they are only needed for resumption).
    if (session.calls.length > CALL_LIMIT) {
      const oldest = session.calls.findIndex((c) => c.finished || c.cancelled);
      if (oldest >= 0) session.calls.splice(oldest, 1);
    }
    return call;
  }

  /** After `initialize`: the negotiated version, and the golden's server-initiated messages. */
  private startSession(session: ReplaySession, call: ReplayCall): void {
    const answer = call.recorded.find((e) => isResponse(e.message))?.message;
    const version = resultOf(answer)?.protocolVersion;
    session.version = typeof version === 'string' ? version : call.exchange.protocolVersion;
    const pushes = this.plan.pushes.get(call.exchange.source) ?? [];
    if (pushes.length === 0 || this.closed) return;
    const stop = this.pacer.paceInOrder(
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

const NO_VALUES: RawRequestValues = {};

/**
 * The live id and token as the client wrote them (its text, where the adapter has it), else as
 * JSON writes their parsed values.
 */
function liveValues(message: JsonRpcMessage, text: string | undefined): LiveStamp {
  const raw = text === undefined ? NO_VALUES : rawRequestValues(text);
  const token = requestProgressToken(message);
  const idJson = raw.idJson ?? JSON.stringify(message.id ?? null);
  return token.present ? { idJson, tokenJson: raw.tokenJson ?? JSON.stringify(token.token) } : { idJson };
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
