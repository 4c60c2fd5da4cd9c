import type { Era } from '../transcript/frame.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { type CallArrivals, type ClientCall, runCall } from './client-call.js';
import { type DiscoverOutcome, discover, drain, initialize, listTools, requestResponse } from './client-handshake.js';
import { type EraStrategy, eraStrategy } from './era-strategy.js';
import type { Scenario } from './scenario.js';
import type { CallStream, WireSession } from './wire-session.js';

export type { CallArrivals, CallEnd, ClientCall, LiveArrival } from './client-call.js';

/** Options of {@link openSessionClient}. */
export interface SessionClientOptions {
  /** The era strategy: `legacy` (initialize, sessions, resumption) or `modern` (2026-07-28: an envelope per request). */
  readonly era: Era;
  /** Longest wait for any one message, in ms. */
  readonly timeoutMs: number;
  /** Whose `answers` the client declares as capabilities and answers the server's requests with. */
  readonly scenario: Scenario;
  /**
   * Answer the server's requests and `input_required` rounds from the scenario's `answers` (a
   * request without one gets an error and fails the call). When false they are left unanswered.
   */
  readonly answerServer: boolean;
  /**
   * How long an HTTP stream is still read after its response, so its end is recorded (the
   * recorder); 0 drops it at the response.
   */
  readonly settleMs: number;
}

/** One MCP client session over a wire session, in one era. */
export interface SessionClient extends SessionClientOptions {
  readonly wire: WireSession;
  /** What the client's era changes: framing, headers, cancel, what follows a drop, input rounds. */
  readonly strategy: EraStrategy;
  /** Sends a request framed for the era (modern: envelope and `Mcp-*` headers); returns its stream. */
  send(
    message: JsonRpcMessage,
    paramHeaders?: Readonly<Record<string, string>>,
    scenario?: Scenario,
  ): Promise<CallStream>;
  /** Sends a request framed for the era and reads it to its response (answering the server's requests). */
  ask(message: JsonRpcMessage): Promise<JsonRpcMessage | undefined>;
  /** The legacy handshake: `initialize` (the scenario's `protocolVersion`, else the default) and `notifications/initialized`. */
  initialize(
    id: string | number,
    failure?: (detail: string) => string,
  ): Promise<{ protocolVersion: string; capabilities: unknown }>;
  /** The modern handshake: `server/discover` (does it offer 2026-07-28, and why not). */
  discover(id: number): Promise<DiscoverOutcome>;
  /** `tools/list`, refusing a scenario whose tool the server lacks; the tool's `Mcp-Param-*` headers. */
  listTools(id: number): Promise<Record<string, string>>;
  /** Makes one call and reads it as the plan says. */
  call(plan: ClientCall): Promise<CallArrivals>;
  /** Keeps these ids out of {@link newId}. */
  reserve(ids: Iterable<unknown>): void;
  /** A whole-number request id clear of the reserved ones and of every id handed out before. */
  newId(): number;
  /** Reads a stream to its end, or drops it after `ms`. */
  drain(stream: CallStream, ms: number): Promise<JsonRpcMessage[]>;
  close(): Promise<void>;
}

/**
 * The one MCP client: opens nothing itself (see `openTarget`), speaks one era over `wire`. The
 * legacy era initializes a session; the modern era (2026-07-28) has no handshake beyond
 * `server/discover` and sends the per-request envelope, with its `Mcp-*` headers, on every
 * request, and cancels over HTTP by closing the call's stream.
 */
export function openSessionClient(wire: WireSession, options: SessionClientOptions): SessionClient {
  const strategy = eraStrategy(options.era);
  const { scenario, timeoutMs } = options;
  const taken = new Set<unknown>();
  let lastId = 2;
  const client: SessionClient = {
    ...options,
    wire,
    strategy,
    send(message, paramHeaders = {}, own = scenario) {
      const framed = strategy.frame(message, own);
      return wire.request(framed, strategy.headers(framed, paramHeaders));
    },
    ask: (message) => requestResponse(wire, scenario, strategy.frame(message, scenario), timeoutMs),
    async initialize(id, failure) {
      return initialize(wire, scenario, id, timeoutMs, {
        answerServer: options.answerServer,
        settleMs: options.settleMs,
        ...(failure && { failure }),
      });
    },
    discover: (id) => discover(wire, scenario, id, timeoutMs),
    listTools: (id) => listTools(wire, scenario, id, timeoutMs, options.era === 'modern'),
    call: (plan) => runCall(client, plan),
    reserve(ids) {
      for (const id of ids) taken.add(id);
    },
    newId() {
      do lastId++;
      while (taken.has(lastId));
      return lastId;
    },
    drain,
    close: () => wire.close(),
  };
  return client;
}
