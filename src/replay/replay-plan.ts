import { canonicalJson } from '../transcript/canonical-json.js';
import type { EndReason, Frame, Transcript } from '../transcript/frame.js';
import { frameMessage, type JsonRpcMessage, sseBlock } from '../transcript/frame-content.js';

/** One body frame to replay, at its offset from the start of the request it answers. */
export interface ReplayEvent {
  /** Microseconds after the request that started the stream. */
  readonly offsetUs: number;
  /** Exact recorded text of the frame (an SSE block, a JSON body, or a stdio line). */
  readonly raw: string;
  readonly kind: 'sse' | 'json' | 'stdio' | 'text';
  /** SSE event id, when the event has one. */
  readonly eventId?: string;
  /** The JSON-RPC message carried, if any. */
  readonly message?: JsonRpcMessage;
}

/** A recorded request and everything that answered it, ready to be replayed. */
export interface ReplayExchange {
  /** Exchange number in the golden. */
  readonly exchange: number;
  /** Golden this exchange comes from (its scenario or index). */
  readonly source: string;
  /** `POST`, `GET`, `DELETE` on HTTP; `STDIO` for a stdio line. */
  readonly httpMethod: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON-RPC message the request carried. */
  readonly message?: JsonRpcMessage;
  /** Matching key: HTTP method, JSON-RPC method and params without `_meta`. */
  readonly key: string;
  /** Recorded response head (HTTP). */
  readonly status?: number;
  readonly responseHeaders?: Readonly<Record<string, string>>;
  readonly headOffsetUs: number;
  /** Body frames of the response, plus those of any resumed stream continuing it. */
  readonly events: readonly ReplayEvent[];
  /** How the (last segment of the) response ended in the recording. */
  readonly end: EndReason;
  /** Content type of the recorded response body. */
  readonly bodyKind: 'sse' | 'json' | 'text' | 'none';
}

/** Everything the replayer serves, built from one or more goldens. */
export interface ReplayPlan {
  readonly exchanges: readonly ReplayExchange[];
  /** True when the recording used `mcp-session-id` (the replayer then hands out its own). */
  readonly sessions: boolean;
}

/** The matching key of a request: what must be equal for a recorded answer to fit. */
export function requestKey(httpMethod: string, message: JsonRpcMessage | undefined): string {
  if (!message || typeof message.method !== 'string') return httpMethod;
  // Notifications carry live ids; initialize carries the client's own name and capabilities.
  if (!('id' in message) || message.method === 'initialize') return `${httpMethod} ${message.method}`;
  const { _meta: _, ...params } = (message.params ?? {}) as Record<string, unknown>;
  return `${httpMethod} ${message.method} ${canonicalJson(params)}`;
}

function bodyEvent(frame: Frame, startT: number): ReplayEvent | undefined {
  if (frame.raw === undefined) return undefined;
  if (frame.channel !== 'sse' && frame.channel !== 'json' && frame.channel !== 'stdio' && frame.channel !== 'text') {
    return undefined;
  }
  const message = frameMessage(frame);
  const eventId = frame.channel === 'sse' ? sseBlock(frame)?.id : undefined;
  return {
    offsetUs: Math.max(0, frame.t - startT),
    raw: frame.raw,
    kind: frame.channel,
    ...(eventId !== undefined && { eventId }),
    ...(message && { message }),
  };
}

function httpExchanges(transcript: Transcript, source: string): ReplayExchange[] {
  const groups = new Map<number, Frame[]>();
  for (const frame of transcript.frames) {
    const list = groups.get(frame.exchange) ?? [];
    list.push(frame);
    groups.set(frame.exchange, list);
  }
  const built: Building[] = [];
  for (const [exchange, frames] of groups) {
    const head = frames.find((f) => f.channel === 'http' && f.dir === 'client->server');
    if (!head) continue;
    const responseHead = frames.find((f) => f.channel === 'http' && f.dir === 'server->client');
    const message = frames.map((f) => (f.dir === 'client->server' ? frameMessage(f) : undefined)).find(Boolean);
    const events = frames
      .filter((f) => f.dir === 'server->client')
      .map((f) => bodyEvent(f, head.t))
      .filter((e): e is ReplayEvent => e !== undefined);
    const end = frames.find((f) => f.channel === 'end' && f.dir === 'server->client')?.reason ?? 'open';
    const type = responseHead?.headers?.['content-type'] ?? '';
    const httpMethod = head.method ?? 'POST';
    const lastEventId = head.headers?.['last-event-id'];
    built.push({
      exchange,
      source,
      httpMethod,
      headers: head.headers ?? {},
      ...(message && { message }),
      key: lastEventId !== undefined ? 'GET resume' : requestKey(httpMethod, message),
      ...(responseHead?.status !== undefined && { status: responseHead.status }),
      ...(responseHead?.headers && { responseHeaders: responseHead.headers }),
      headOffsetUs: responseHead ? Math.max(0, responseHead.t - head.t) : 0,
      events,
      end,
      bodyKind: type.includes('text/event-stream')
        ? 'sse'
        : type.includes('json')
          ? 'json'
          : events.length > 0
            ? 'text'
            : 'none',
      ids: new Set(events.flatMap((e) => (e.eventId ? [e.eventId] : []))),
      startT: head.t,
      ...(lastEventId !== undefined && { resumeOf: lastEventId }),
    });
  }
  return joinResumedStreams(built);
}

/** An exchange being built: the event ids it carries, its start time, and the id it resumes after. */
type Building = ReplayExchange & { ids: Set<string>; startT: number; resumeOf?: string };

/**
 * A stream dropped by the client and resumed with `Last-Event-ID` is one logical stream: the
 * resumed exchange's events are appended to the exchange it continues, re-based on its start.
 */
function joinResumedStreams(built: Building[]): ReplayExchange[] {
  const out: ReplayExchange[] = [];
  for (const exchange of built) {
    const { ids, startT, resumeOf, ...plain } = exchange;
    const origin = resumeOf !== undefined ? built.find((b) => b !== exchange && b.ids.has(resumeOf)) : undefined;
    const originIndex = origin
      ? out.findIndex((o) => o.exchange === origin.exchange && o.source === origin.source)
      : -1;
    const target = out[originIndex];
    if (origin && target && exchange.status === 200) {
      const shift = startT - origin.startT;
      const events = [...target.events, ...exchange.events.map((e) => ({ ...e, offsetUs: e.offsetUs + shift }))];
      for (const id of ids) origin.ids.add(id);
      out[originIndex] = { ...target, events, end: exchange.end };
      continue;
    }
    out.push(plain);
  }
  return out;
}

function stdioExchanges(transcript: Transcript, source: string): ReplayExchange[] {
  const out: ReplayExchange[] = [];
  for (const frame of transcript.frames) {
    if (frame.channel !== 'stdio' || frame.dir !== 'client->server' || frame.exchange === 0) continue;
    const message = frameMessage(frame);
    if (!message || !('id' in message)) continue;
    const events = transcript.frames
      .filter((f) => f.exchange === frame.exchange && f.dir === 'server->client')
      .map((f) => bodyEvent(f, frame.t))
      .filter((e): e is ReplayEvent => e !== undefined);
    out.push({
      exchange: frame.exchange,
      source,
      httpMethod: 'POST',
      headers: {},
      message,
      key: requestKey('POST', message),
      headOffsetUs: 0,
      events,
      end: 'complete',
      bodyKind: 'none',
    });
  }
  return out;
}

/**
 * Builds the replay plan of one or more goldens: every recorded request with its answer, keyed
 * for matching, resumed streams joined to the streams they continue.
 */
export function buildReplayPlan(goldens: readonly Transcript[]): ReplayPlan {
  const exchanges = goldens.flatMap((golden, index) => {
    const source = golden.header.scenario ?? `golden #${index + 1}`;
    return golden.header.transport === 'stdio' ? stdioExchanges(golden, source) : httpExchanges(golden, source);
  });
  const sessions = exchanges.some((e) => e.responseHeaders && 'mcp-session-id' in e.responseHeaders);
  return { exchanges, sessions };
}
