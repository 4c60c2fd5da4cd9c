import { basename } from 'node:path';
import { type BodyKind, bodyKindOf } from '../transcript/body-kind.js';
import { canonicalJson } from '../transcript/canonical-json.js';
import type { EndReason, Frame, Transcript } from '../transcript/frame.js';
import { frameMessage, type JsonRpcMessage, sseBlock } from '../transcript/frame-content.js';
import { isResponse, paramsOf, paramsWithoutMeta, requestProgressToken } from '../transcript/json-rpc.js';
import { rawRequestValues } from './json-text.js';
import { type StampTemplate, stampTemplate } from './stamp-template.js';

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
  /** Where a live id and token go in `raw`, found once for every session that replays it. */
  readonly template: StampTemplate;
  /** Which read of its stream carried it in the recording: events of one read go out in one write. */
  readonly read?: number;
}

/** A recorded request and everything that answered it, ready to be replayed. */
export interface ReplayExchange {
  /** Exchange number in the golden. */
  readonly exchange: number;
  /** Golden this exchange comes from: its file name, else its scenario, else its index. */
  readonly source: string;
  /** Transport the golden was recorded over: its frames replay byte-exact on the same transport. */
  readonly transport: 'http' | 'stdio';
  /** Protocol version in the golden's header. */
  readonly protocolVersion: string;
  /** `POST`, `GET`, `DELETE` (a stdio request counts as a `POST`). */
  readonly httpMethod: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON-RPC message the request carried. */
  readonly message?: JsonRpcMessage;
  /** Matching key: HTTP method, JSON-RPC method and params without `_meta`. */
  readonly key: string;
  /** Whether the recorded request carried `_meta.progressToken`. */
  readonly hasToken: boolean;
  /** The recorded request's token as it was written: recorded tokens equal to it take the live token. */
  readonly tokenJson?: string;
  /** Recorded response head (HTTP). */
  readonly status?: number;
  readonly responseHeaders?: Readonly<Record<string, string>>;
  readonly headOffsetUs: number;
  /** Body frames of the response, plus those of any resumed stream continuing it. */
  readonly events: readonly ReplayEvent[];
  /** How the (last segment of the) response ended in the recording. */
  readonly end: EndReason;
  /** Content type of the recorded response body; `stdio` for lines. */
  readonly bodyKind: BodyKind | 'none';
}

/** A golden with the file it was read from, so reports and errors can name the file. */
export interface NamedGolden {
  readonly file: string;
  readonly golden: Transcript;
}

/** A golden as the replayer takes it: a transcript, or a transcript with its file. */
export type GoldenInput = Transcript | NamedGolden;

/** Everything the replayer serves, built from one or more goldens. */
export interface ReplayPlan {
  readonly exchanges: readonly ReplayExchange[];
  /**
   * True when a golden recorded over HTTP has no `mcp-session-id` (a stateless server): requests
   * without a session id are then served. Otherwise they get the spec's `400`, unless no golden
   * was recorded over HTTP at all.
   */
  readonly sessionless: boolean;
  /**
   * Server-initiated messages (notifications such as `list_changed`, server requests) recorded
   * outside any client request, by golden source, offsets from the session's `initialize`.
   */
  readonly pushes: ReadonlyMap<string, readonly ReplayEvent[]>;
}

/** True when the request carries `params._meta.progressToken`. */
export function hasProgressToken(message: JsonRpcMessage | undefined): boolean {
  return message !== undefined && requestProgressToken(message).present;
}

/** Methods whose optional `arguments` a live server reads the same absent or empty (`tools/call`, `prompts/get`). */
const OPTIONAL_ARGUMENTS = new Set(['tools/call', 'prompts/get']);

/**
 * A request's params as a live server reads them, for matching: without `_meta` (a client's or a
 * gateway's), and without an empty optional `arguments` (the Inspector sends `arguments: {}`
 * where another client sends none). Key order never counts: keys are compared canonically.
 */
export function paramsAsRead(message: JsonRpcMessage | undefined): Record<string, unknown> {
  const params = paramsWithoutMeta(message);
  const args = params.arguments;
  if (!OPTIONAL_ARGUMENTS.has(String(message?.method)) || !isEmptyObject(args)) return params;
  const { arguments: _empty, ...rest } = params;
  return rest;
}

const isEmptyObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

/** True when a request and its recording differ only in an empty optional `arguments` one has and the other lacks. */
export function argumentsReadAlike(recorded: JsonRpcMessage | undefined, live: JsonRpcMessage): boolean {
  return OPTIONAL_ARGUMENTS.has(String(live.method)) && hasArguments(recorded) !== hasArguments(live);
}

/** Whether a request's params have an `arguments` member (read in place: asked of every call). */
const hasArguments = (message: JsonRpcMessage | undefined): boolean =>
  message !== undefined && Object.prototype.propertyIsEnumerable.call(paramsOf(message), 'arguments');

/** The matching key of a request: what must be equal for a recorded answer to fit. */
export function requestKey(httpMethod: string, message: JsonRpcMessage | undefined): string {
  if (!message || typeof message.method !== 'string') return httpMethod;
  // Notifications carry live ids; initialize carries the client's own name and capabilities.
  if (!('id' in message) || message.method === 'initialize') return `${httpMethod} ${message.method}`;
  return `${httpMethod} ${message.method} ${canonicalJson(paramsAsRead(message))}`;
}

/** Templates by frame: a golden served by several engines (a test file's replays) is cut once. */
const templates = new WeakMap<Frame, StampTemplate>();

function templateOf(
  frame: Frame,
  raw: string,
  kind: ReplayEvent['kind'],
  message: JsonRpcMessage | undefined,
): StampTemplate {
  let template = templates.get(frame);
  if (!template) {
    // Only an answer carries the client's id; a server request in the stream keeps its own.
    template = stampTemplate(raw, kind, message !== undefined && isResponse(message));
    templates.set(frame, template);
  }
  return template;
}

function bodyEvent(frame: Frame, startT: number, read?: number): ReplayEvent | undefined {
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
    template: templateOf(frame, frame.raw, frame.channel, message),
    ...(read !== undefined && { read }),
  };
}

/** The body events of one response's frames, each with the number of the read that carried it. */
function responseEvents(frames: readonly Frame[], startT: number): ReplayEvent[] {
  const events: ReplayEvent[] = [];
  let read = -1;
  for (const frame of frames) {
    if (frame.dir !== 'server->client') continue;
    if (frame.channel === 'read') read++;
    const event = bodyEvent(frame, startT, read >= 0 ? read : undefined);
    if (event) events.push(event);
  }
  return events;
}

interface GoldenSource {
  readonly source: string;
  readonly protocolVersion: string;
}

function httpExchanges(transcript: Transcript, golden: GoldenSource): ReplayExchange[] {
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
    const requestFrame = frames.find((f) => f.dir === 'client->server' && frameMessage(f) !== undefined);
    const message = requestFrame && frameMessage(requestFrame);
    const tokenJson = requestFrame?.raw === undefined ? undefined : rawRequestValues(requestFrame.raw).tokenJson;
    const events = responseEvents(frames, head.t);
    const end = frames.find((f) => f.channel === 'end' && f.dir === 'server->client')?.reason ?? 'open';
    const kind = bodyKindOf(responseHead?.headers?.['content-type']);
    const httpMethod = head.method ?? 'POST';
    const lastEventId = head.headers?.['last-event-id'];
    built.push({
      exchange,
      ...golden,
      transport: 'http',
      httpMethod,
      headers: head.headers ?? {},
      ...(message && { message }),
      key: lastEventId !== undefined ? 'GET resume' : requestKey(httpMethod, message),
      hasToken: hasProgressToken(message),
      ...(tokenJson !== undefined && { tokenJson }),
      ...(responseHead?.status !== undefined && { status: responseHead.status }),
      ...(responseHead?.headers && { responseHeaders: responseHead.headers }),
      headOffsetUs: responseHead ? Math.max(0, responseHead.t - head.t) : 0,
      events,
      end,
      bodyKind: kind === 'text' && events.length === 0 ? 'none' : kind,
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
      // The resumed stream's reads come after the dropped stream's: numbered on from them.
      const reads = 1 + Math.max(-1, ...target.events.map((e) => e.read ?? -1));
      const resumed = exchange.events.map((e) => ({
        ...e,
        offsetUs: e.offsetUs + shift,
        ...(e.read !== undefined && { read: e.read + reads }),
      }));
      const events = [...target.events, ...resumed];
      for (const id of ids) origin.ids.add(id);
      out[originIndex] = { ...target, events, end: exchange.end };
      continue;
    }
    out.push(plain);
  }
  return out;
}

function stdioExchanges(transcript: Transcript, golden: GoldenSource): ReplayExchange[] {
  const out: ReplayExchange[] = [];
  // Server frames by exchange, gathered once: a lookup per request keeps planning linear.
  const answers = new Map<number, Frame[]>();
  for (const f of transcript.frames) {
    if (f.dir !== 'server->client') continue;
    const list = answers.get(f.exchange);
    if (list) list.push(f);
    else answers.set(f.exchange, [f]);
  }
  for (const frame of transcript.frames) {
    if (frame.channel !== 'stdio' || frame.dir !== 'client->server' || frame.exchange === 0) continue;
    const message = frameMessage(frame);
    if (!message || !('id' in message)) continue;
    const events = responseEvents(answers.get(frame.exchange) ?? [], frame.t);
    const tokenJson = frame.raw === undefined ? undefined : rawRequestValues(frame.raw).tokenJson;
    out.push({
      exchange: frame.exchange,
      ...golden,
      transport: 'stdio',
      httpMethod: 'POST',
      headers: {},
      message,
      key: requestKey('POST', message),
      hasToken: hasProgressToken(message),
      ...(tokenJson !== undefined && { tokenJson }),
      headOffsetUs: 0,
      events,
      end: 'complete',
      bodyKind: 'stdio',
    });
  }
  return out;
}

/** Server-initiated messages of a golden, timed from its `initialize` request. */
function pushesOf(transcript: Transcript): ReplayEvent[] {
  const init = transcript.frames.find((f) => f.dir === 'client->server' && frameMessage(f)?.method === 'initialize');
  const start = init?.t ?? 0;
  if (transcript.header.transport === 'stdio') {
    return transcript.frames
      .filter((f) => f.channel === 'stdio' && f.dir === 'server->client' && f.exchange === 0)
      .map((f) => bodyEvent(f, start))
      .filter((e): e is ReplayEvent => typeof e?.message?.method === 'string');
  }
  // Over HTTP they come on the standalone GET stream (a GET that resumes nothing).
  const standalone = new Set(
    transcript.frames
      .filter((f) => f.channel === 'http' && f.method === 'GET' && f.headers?.['last-event-id'] === undefined)
      .map((f) => f.exchange),
  );
  return transcript.frames
    .filter((f) => f.dir === 'server->client' && standalone.has(f.exchange))
    .map((f) => bodyEvent(f, start))
    .filter((e): e is ReplayEvent => typeof e?.message?.method === 'string');
}

/** The source name of a golden: its file name, else its scenario, else its position. */
export function goldenSource(input: GoldenInput, index: number): string {
  if ('file' in input) return basename(input.file);
  return input.header.scenario ?? `golden #${index + 1}`;
}

const transcriptOf = (input: GoldenInput): Transcript => ('file' in input ? input.golden : input);

/**
 * Builds the replay plan of one or more goldens: every recorded request with its answer, keyed
 * for matching, resumed streams joined to the streams they continue.
 */
export function buildReplayPlan(goldens: readonly GoldenInput[]): ReplayPlan {
  const pushes = new Map<string, ReplayEvent[]>();
  let sessionless = false;
  const exchanges = goldens.flatMap((input, index) => {
    const golden = transcriptOf(input);
    const source = { source: goldenSource(input, index), protocolVersion: golden.header.protocolVersion };
    const found = pushesOf(golden);
    if (found.length > 0) pushes.set(source.source, found);
    if (golden.header.transport === 'stdio') return stdioExchanges(golden, source);
    const built = httpExchanges(golden, source);
    if (!built.some((e) => e.responseHeaders && 'mcp-session-id' in e.responseHeaders)) sessionless = true;
    return built;
  });
  const anyHttp = goldens.some((g) => transcriptOf(g).header.transport === 'http');
  return { exchanges, sessionless: sessionless || !anyHttp, pushes };
}
