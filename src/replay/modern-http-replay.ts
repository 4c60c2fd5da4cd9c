import { eraOf, MODERN_PROTOCOL_VERSION, type Transcript } from '../transcript/frame.js';
import { frameMessage } from '../transcript/frame-content.js';
import { isJsonObject } from '../transcript/json-object.js';
import { isJsonRpcMessage } from '../transcript/json-rpc.js';
import {
  ENVELOPE_KEYS,
  envelopeVersion,
  hasModernHeaders,
  headerMismatch,
  paramHeaderMismatch,
  paramHeadersOf,
} from '../transcript/modern-envelope.js';
import { TRANSPORT_HEADERS } from '../transcript/normalize.js';
import { type IncomingRequest, type ResponseSink, writeOut } from './http-exchange.js';
import { sendError } from './http-guards.js';
import { JSON_HEADERS, jsonRpcError } from './json-rpc-error.js';
import { streamOffsets } from './live-event.js';
import { frameEvent } from './reframe.js';
import { type ReplayCall, ReplayEngine, type ReplayOptions } from './replay-engine.js';
import type { GoldenInput, ReplayExchange } from './replay-plan.js';
import { taskRefusal } from './task-polls.js';
import type { UnmatchedFallback } from './unmatched-fallback.js';

/** The goldens of each era: the legacy ones are served with sessions, the modern ones per request. */
export function splitGoldensByEra(goldens: readonly GoldenInput[]): {
  readonly legacy: GoldenInput[];
  readonly modern: GoldenInput[];
} {
  const legacy: GoldenInput[] = [];
  const modern: GoldenInput[] = [];
  for (const input of goldens) {
    const golden = 'golden' in input ? input.golden : input;
    (eraOf(golden.header) === 'modern' ? modern : legacy).push(input);
  }
  return { legacy, modern };
}

/**
 * Serves the modern era (2026-07-28) from modern goldens, beside the legacy adapter: every POST is
 * its own exchange (no session), GET and DELETE are `405`, headers that disagree with the body are
 * `400` with `-32020`, an envelope naming another revision is `400` with `-32022`, and
 * `server/discover`, results (with their `resultType`) and `input_required` rounds come from the
 * recording, matched by method and params as every request is. A client that closes a stream
 * cancels that call at once: nothing more is written, and no other call is touched.
 */
export class ModernHttpReplay {
  /** Calls still streaming, with the response each writes to. */
  private readonly live = new Map<ReplayCall, ResponseSink>();

  /** The engine and the recorded `x-mcp-header` arguments, built on first use (see {@link ModernHttpReplay.of}). */
  private built:
    | { readonly engine: ReplayEngine; readonly paramHeaders: ReadonlyMap<string, Readonly<Record<string, string>>> }
    | undefined;

  constructor(
    /** The goldens this side serves: asked for once, when the side is first used. */
    private readonly goldens: () => readonly GoldenInput[],
    private readonly options: ReplayOptions,
    /** True when the replay also serves legacy goldens: then only requests that say they are modern come here. */
    private readonly beside: boolean,
    /**
     * True when the legacy side serves only modern goldens re-framed for 2025 clients: then every
     * request comes here but one that says it is 2025's (an `initialize`, a session id, a 2025
     * `MCP-Protocol-Version`).
     */
    private readonly crossedBeside = false,
  ) {}

  /**
   * Builds the modern side of a replay. `goldens` is asked for at once when `eager` (the replay has
   * modern goldens of its own), else on the first modern request: a replay of 2025 goldens only
   * re-frames them for 2026-07-28 clients when one comes.
   */
  static of(
    goldens: () => readonly GoldenInput[],
    options: ReplayOptions,
    beside: boolean,
    crossedBeside = false,
    eager = true,
  ): ModernHttpReplay {
    const side = new ModernHttpReplay(goldens, options, beside, crossedBeside);
    if (eager) void side.engine;
    return side;
  }

  /** The engine answering this side's requests. */
  get engine(): ReplayEngine {
    return this.build().engine;
  }

  private build(): NonNullable<ModernHttpReplay['built']> {
    if (!this.built) {
      const goldens = this.goldens();
      this.built = { engine: new ReplayEngine(goldens, this.options), paramHeaders: recordedParamHeaders(goldens) };
    }
    return this.built;
  }

  /**
   * Whether a request belongs to the modern era: it carries `Mcp-Method`, names 2026-07-28 in
   * `MCP-Protocol-Version` or in its body's envelope; with no legacy goldens beside, every request
   * (but a 2025 client's, when the legacy side answers it from crossed goldens).
   */
  claims(request: IncomingRequest): boolean {
    if (hasModernHeaders(request.headers)) return true;
    const version = request.headers['mcp-protocol-version'];
    if (request.httpMethod === 'POST' && request.body.includes(ENVELOPE_KEYS.protocolVersion)) return true;
    if (this.beside) return false;
    if (!this.crossedBeside) return true;
    return !(version !== undefined || request.headers['mcp-session-id'] !== undefined || isInitialize(request.body));
  }

  /** Stops every call still streaming and ends its response. */
  close(): void {
    for (const [call, sink] of this.live) {
      this.engine.cancel(call);
      sink.end();
    }
    this.live.clear();
    this.built?.engine.close();
  }

  /**
   * Answers one modern-era request; never throws. `fallback` answers it instead of the engine's
   * refusal when no golden matches (the CLI's pass-through).
   */
  handle(request: IncomingRequest, sink: ResponseSink, fallback?: UnmatchedFallback): void {
    if (request.httpMethod !== 'POST') {
      this.engine.note(null, request.httpMethod, undefined, undefined, 'modern era: no GET or DELETE');
      sendError(
        sink,
        405,
        -32000,
        `Method not allowed: ${request.httpMethod}. The 2026-07-28 revision has no sessions and no GET stream: send each request as a POST (subscriptions/listen for notifications).`,
        { allow: 'POST' },
      );
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(request.body);
    } catch {
      sendError(sink, 400, -32700, 'Parse error: the request body is not valid JSON. Send one JSON-RPC message.');
      return;
    }
    if (!isJsonRpcMessage(value)) {
      sendError(
        sink,
        400,
        -32600,
        'Invalid Request: expected one JSON-RPC 2.0 message object (no batches in 2026-07-28).',
      );
      return;
    }
    if (typeof value.method !== 'string' || !('id' in value)) {
      // Notifications and responses: acknowledged, as a modern server does.
      this.engine.note(null, 'POST', value, undefined);
      sink.head(202, {});
      sink.end();
      return;
    }
    const version = envelopeVersion(value) ?? request.headers['mcp-protocol-version'];
    if (version !== MODERN_PROTOCOL_VERSION) {
      const text = `Unsupported protocol version: ${JSON.stringify(version ?? null)}. This replay serves ${MODERN_PROTOCOL_VERSION} per request; send the per-request _meta envelope (${ENVELOPE_KEYS.protocolVersion}).`;
      this.engine.note(null, 'POST', value, undefined, text);
      this.answer(
        sink,
        400,
        jsonRpcError(value.id, -32022, text, { supported: [MODERN_PROTOCOL_VERSION], requested: version ?? null }),
      );
      return;
    }
    const mismatch = headerMismatch(request.headers, value);
    if (mismatch !== undefined) {
      const text = `Header mismatch: ${mismatch}. A 2026-07-28 request's Mcp-Method, Mcp-Name and MCP-Protocol-Version headers must repeat its body.`;
      this.engine.note(null, 'POST', value, undefined, text);
      this.answer(sink, 400, jsonRpcError(value.id, -32020, text));
      return;
    }
    const tool = isJsonObject(value.params) ? value.params.name : undefined;
    const declared =
      value.method === 'tools/call' && typeof tool === 'string' ? this.build().paramHeaders.get(tool) : undefined;
    const paramMismatch = declared && paramHeaderMismatch(request.headers, value, declared);
    if (paramMismatch) {
      const text = `Header mismatch: ${paramMismatch}. The recorded tool ${JSON.stringify(tool)} marks that argument with x-mcp-header: send its Mcp-Param-* header with the same value (=?base64?...?= for non-ASCII).`;
      this.engine.note(null, 'POST', value, undefined, text);
      this.answer(sink, 400, jsonRpcError(value.id, -32020, text));
      return;
    }
    const refusal = taskRefusal(this.engine.match(value, 'http'), value);
    if (refusal) {
      this.engine.note(null, 'POST', value, undefined, refusal.message);
      this.answer(sink, 200, jsonRpcError(value.id, refusal.code, refusal.message, refusal.data));
      return;
    }
    const session = this.engine.openSession('http');
    const answer = this.engine.receive(session, value, 'POST');
    if (answer.kind === 'accepted') {
      sink.head(202, {});
      sink.end();
      this.engine.endSession(session);
      return;
    }
    if (answer.kind === 'unmatched') {
      // Each modern request stands alone: the fallback gets a session object of its own.
      if (fallback)
        fallback.forward({ session: {}, sessionId: null, initialize: undefined, request, sink, era: 'modern' });
      else this.answer(sink, 200, answer.text);
      this.engine.endSession(session);
      return;
    }
    this.stream(answer.call, sink, () => this.engine.endSession(session));
  }

  private answer(sink: ResponseSink, status: number, text: string): void {
    sink.head(status, { ...JSON_HEADERS });
    sink.write(text);
    sink.end();
  }

  /** Plays a call as recorded: its head, then each event at its offset; a close by the client stops it. */
  private stream(call: ReplayCall, sink: ResponseSink, done: () => void): void {
    const exchange = call.exchange;
    const exact = exchange.transport === 'http' && exchange.responseHeaders !== undefined;
    const sse = exact ? exchange.bodyKind === 'sse' : call.events.some((e) => e.message && 'method' in e.message);
    const headers = exact
      ? responseHeaders(exchange)
      : { 'content-type': sse ? 'text/event-stream' : 'application/json' };
    const headUs = exact ? exchange.headOffsetUs : 0;
    let open = true;
    this.live.set(call, sink);
    const finish = (): void => {
      this.live.delete(call);
      done();
    };
    sink.onClose(() => {
      // The modern era's cancel: nothing more goes out for this call.
      open = false;
      this.engine.cancel(call);
      finish();
    });
    const offsets = streamOffsets(call.recorded, headUs);
    this.engine.play(
      call,
      sse ? offsets : [Math.max(...offsets)],
      (i) => {
        if (!open) return;
        if (!sse) {
          sink.head(exact ? (exchange.status ?? 200) : 200, headers);
          for (const event of call.events) writeOut(sink, exact ? event.bytes() : (frameEvent(event, 'json') ?? ''));
          return;
        }
        if (i === 0) {
          sink.head(exact ? (exchange.status ?? 200) : 200, headers);
          return;
        }
        const event = call.events[i - 1];
        if (event === undefined) return;
        const out = exact ? event.bytes() : frameEvent(event, 'sse');
        if (out !== undefined) writeOut(sink, out);
      },
      () => {
        // A recording the client cut short (a cancelled call) leaves the stream open, as it was.
        if (!open || call.cancelled || (exact && exchange.end !== 'complete' && sse)) return;
        call.finished = true;
        open = false;
        sink.end();
        finish();
      },
      () => sink.flush?.(),
    );
  }
}

/** The recorded response headers without transport headers, and today's date. */
function responseHeaders(exchange: ReplayExchange): Record<string, string> {
  const out: Record<string, string> = {};
  const recorded = exchange.responseHeaders ?? {};
  for (const name in recorded) {
    if (TRANSPORT_HEADERS.has(name) || name === 'mcp-session-id') continue;
    out[name] = name === 'date' ? new Date().toUTCString() : (recorded[name] as string);
  }
  return out;
}

/** True when a body is an `initialize` request (the 2025 handshake). */
function isInitialize(body: string): boolean {
  if (!body.includes('initialize')) return false;
  try {
    const value: unknown = JSON.parse(body);
    return isJsonRpcMessage(value) && value.method === 'initialize';
  } catch {
    return false;
  }
}

/** The `x-mcp-header` arguments of every tool the goldens' `tools/list` answers list, by tool name. */
function recordedParamHeaders(goldens: readonly GoldenInput[]): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const input of goldens) {
    const golden: Transcript = 'golden' in input ? input.golden : input;
    for (const frame of golden.frames) {
      if (frame.dir !== 'server->client') continue;
      const result = frameMessage(frame)?.result;
      const tools = isJsonObject(result) ? result.tools : undefined;
      if (!Array.isArray(tools)) continue;
      for (const tool of tools) {
        const headers = paramHeadersOf(tool);
        if (isJsonObject(tool) && typeof tool.name === 'string' && Object.keys(headers).length > 0)
          out.set(tool.name, headers);
      }
    }
  }
  return out;
}
