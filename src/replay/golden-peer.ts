import { answeringEra, jsonAnswer, writeAnswer } from '../http/answering-era.js';
import type { PerRequestPeer, RuleNote } from '../http/per-request-side.js';
import type { ReadRequest } from '../http/read-request.js';
import { eraOf, type Transcript } from '../transcript/frame.js';
import { frameMessage, type JsonRpcMessage } from '../transcript/frame-content.js';
import { isJsonObject } from '../transcript/json-object.js';
import { paramHeadersOf } from '../transcript/modern-envelope.js';
import { chunkingSink, isAdversarial } from './chunking.js';
import { type IncomingRequest, type ResponseSink, writeOut } from './http-exchange.js';
import { responseHeaders } from './http-stream.js';
import { JSON_HEADERS, jsonRpcError } from './json-rpc-error.js';
import { discoveredServer, LIVE_DEFAULT_REMARK } from './live-defaults.js';
import { streamOffsets } from './live-event.js';
import { frameEvent } from './reframe.js';
import { type ReplayCall, ReplayEngine, type ReplayOptions } from './replay-engine.js';
import type { GoldenInput } from './replay-plan.js';
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
export class GoldenPeer implements PerRequestPeer<ResponseSink, IncomingRequest> {
  /** Calls still streaming, with the response each writes to. */
  private readonly live = new Map<ReplayCall, ResponseSink>();
  /** `subscriptions/listen` streams held open (a recorded server that advertised a list change). */
  private readonly listens = new Set<ResponseSink>();

  /** The engine and the recorded `x-mcp-header` arguments, built on first use (see {@link GoldenPeer.of}). */
  private built:
    | {
        readonly engine: ReplayEngine;
        readonly paramHeaders: ReadonlyMap<string, Readonly<Record<string, string>>>;
        /** The request methods the goldens record. */
        readonly methods: ReadonlySet<string>;
      }
    | undefined;

  constructor(
    /** The goldens this side serves: asked for once, when the side is first used. */
    private readonly goldens: () => readonly GoldenInput[],
    private readonly options: ReplayOptions,
  ) {}

  /**
   * Builds the modern side of a replay. `goldens` is asked for at once when `eager` (the replay has
   * modern goldens of its own), else on the first modern request: a replay of 2025 goldens only
   * re-frames them for 2026-07-28 clients when one comes.
   */
  static of(goldens: () => readonly GoldenInput[], options: ReplayOptions, eager = true): GoldenPeer {
    const side = new GoldenPeer(goldens, options);
    if (eager) void side.engine;
    return side;
  }

  /** The engine answering this side's requests. */
  get engine(): ReplayEngine {
    return this.build().engine;
  }

  private build(): NonNullable<GoldenPeer['built']> {
    if (!this.built) {
      const goldens = this.goldens();
      const engine = new ReplayEngine(goldens, this.options);
      const methods = new Set(engine.plan.exchanges.map((e) => e.message?.method).filter((m) => typeof m === 'string'));
      this.built = { engine, paramHeaders: recordedParamHeaders(goldens), methods };
    }
    return this.built;
  }

  /** Stops every call still streaming and ends its response. */
  close(): void {
    for (const [call, sink] of this.live) {
      this.engine.cancel(call);
      sink.end();
    }
    this.live.clear();
    for (const sink of this.listens) sink.end();
    this.listens.clear();
    this.built?.engine.close();
  }

  /** Answers the requests no golden matches instead of the engine's refusal, when set (the CLI's pass-through). */
  fallback: UnmatchedFallback | undefined;

  /** With a fallback the live server has every method; without, those the goldens record. */
  hasMethod(method: string): boolean {
    return this.fallback !== undefined || this.build().methods.has(method);
  }

  /** The `x-mcp-header` arguments the recorded `tools/list` gives the tool. */
  paramHeaders(tool: string): Readonly<Record<string, string>> | undefined {
    return this.build().paramHeaders.get(tool);
  }

  /** The recorded server's `server/discover` capabilities and info (no golden records a listen). */
  listening(): { capabilities: Record<string, unknown>; serverInfo: Record<string, unknown> | undefined; accel: true } {
    return { ...discoveredServer(this.engine.plan.exchanges), accel: true };
  }

  /** What the era's rules answered themselves goes into the report. */
  noted(message: JsonRpcMessage, note: RuleNote): void {
    this.engine.note(null, 'POST', message, undefined, note.error, note.liveDefault ? LIVE_DEFAULT_REMARK : undefined);
  }

  /** A listen stream held open: ended when the replay closes. */
  held(sink: ResponseSink): void {
    this.listens.add(sink);
    sink.onClose(() => this.listens.delete(sink));
  }

  /**
   * Answers one 2026-07-28 request the era's rules let through, from the goldens (a task's polls in
   * order), or from the fallback when none matches; never throws.
   */
  answer(
    value: JsonRpcMessage,
    _read: ReadRequest,
    request: IncomingRequest,
    sink: ResponseSink,
    cancelled: AbortSignal,
  ): void {
    const refusal = taskRefusal(this.engine.match(value, 'http'), value);
    if (refusal) {
      this.engine.note(null, 'POST', value, undefined, refusal.message);
      writeAnswer(sink, jsonAnswer(200, jsonRpcError(value.id, refusal.code, refusal.message, refusal.data)));
      return;
    }
    const session = this.engine.openSession('http');
    const answer = this.engine.receive(session, value, 'POST');
    if (answer.kind === 'accepted') {
      writeAnswer(sink, { status: 202, headers: {} });
      this.engine.endSession(session);
      return;
    }
    if (answer.kind === 'unmatched') {
      // Each modern request stands alone: the fallback gets a session object of its own.
      if (this.fallback)
        this.fallback.forward({ session: {}, sessionId: null, initialize: undefined, request, sink, era: 'modern' });
      else writeAnswer(sink, jsonAnswer(200, answer.text));
      this.engine.endSession(session);
      return;
    }
    this.stream(answer.call, sink, cancelled, () => this.engine.endSession(session));
  }

  /** Plays a call as recorded: its head, then each event at its offset; a close by the client stops it. */
  private stream(call: ReplayCall, client: ResponseSink, cancelled: AbortSignal, done: () => void): void {
    const exchange = call.exchange;
    const exact = exchange.transport === 'http' && exchange.responseHeaders !== undefined;
    const sse = exact ? exchange.bodyKind === 'sse' : call.events.some((e) => e.message && 'method' in e.message);
    // The fault options cut and re-frame SSE events here as on the 2025 side (no priming: 2026-07-28 has no event ids).
    const chunking = this.options.chunking;
    const sink: ResponseSink =
      sse && chunking && isAdversarial(chunking) ? chunkingSink(client, { ...chunking, primingEvents: false }) : client;
    const headers = exact
      ? responseHeaders(exchange, null)
      : sse
        ? answeringEra('modern').streamHeaders(false)
        : { ...JSON_HEADERS };
    const headUs = exact ? exchange.headOffsetUs : 0;
    let open = true;
    this.live.set(call, sink);
    const finish = (): void => {
      this.live.delete(call);
      done();
    };
    cancelled.addEventListener('abort', () => {
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
