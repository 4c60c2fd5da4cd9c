import { refusalAnswer, unknownSession, writeAnswer } from '../http/answering-era.js';
import type { IncomingRequest, ResponseSink } from './http-exchange.js';
import { SSE_HEADERS } from './http-stream.js';
import { inputRoundStep } from './input-rounds.js';
import { JSON_HEADERS, sendError } from './json-rpc-error.js';
import { keepAliveSink } from './keep-alive-sink.js';

/**
 * Request-level faults a replay can inject for client tests (the stream-level ones, framing and
 * cutting, are {@link ChunkingOptions}). Calls are counted in arrival order, `tools/call` only,
 * from 1. All off by default.
 */
export interface ReplayFaults {
  /** The `nth` call is answered with this HTTP status (e.g. 503) and a JSON-RPC error, not from the golden. */
  readonly failCall?: { readonly nth: number; readonly status: number };
  /** Once this many calls of a 2025 session were answered, every request naming its session id gets `404`. */
  readonly sessionGoneAfter?: number;
  /**
   * The `nth` call's response stream ends early: right after its head, after the priming event,
   * or after its first progress notification; `stripIds` removes every `id:` line written, so no
   * resumption is possible.
   */
  readonly cutCall?: {
    readonly nth: number;
    readonly after: 'head' | 'priming' | 'progress';
    readonly stripIds?: boolean;
  };
  /** The first `n` resumption GETs (with `Last-Event-ID`) answer `200` and end before any event. */
  readonly dropResumes?: number;
  /** Every standalone GET (no `Last-Event-ID`) answers `200` `text/event-stream` and ends at once. */
  readonly flapGets?: boolean;
  /** The last progress notification before a result leaves in the same write as the result. */
  readonly coalesceFinal?: boolean;
  /**
   * Every `tools/call` is answered `input_required` (on an SSE stream) this many times before the
   * golden answers it: each retry must echo the last `requestState` byte for byte (a JSON text not
   * in canonical form, {@link inputRoundState}) and answer the elicitation; one that does not gets a
   * JSON-RPC error. For 2026-07-28 clients.
   */
  readonly inputRounds?: number;
  /** A `: keepalive` comment every this many ms on each `tools/call` SSE response while it is open (between events). */
  readonly keepAliveMs?: number;
}

/** One request as a fault-injecting replay saw it, and what became of its response; times in epoch ms. */
export interface AuditedRequest {
  readonly at: number;
  readonly httpMethod: string;
  /** The request headers that say what a client did: session, resumption, 2026-07-28 routing. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed body, when it was JSON. */
  readonly message: unknown;
  /** The `tools/call` number (from 1) when it is one. */
  readonly call?: number;
  status?: number;
  /** When the first progress notification and the result were written to this response. */
  firstProgressAt?: number;
  resultAt?: number;
  /** When the server ended the response; when the client closed it first. */
  endedAt?: number;
  closedByClientAt?: number;
  /** The fault applied to this request, in words. */
  fault?: string;
}

const AUDITED_HEADERS = [
  'mcp-session-id',
  'last-event-id',
  'mcp-method',
  'mcp-name',
  'mcp-protocol-version',
  'accept',
] as const;

const decoder = new TextDecoder();
const textOf = (bytes: Uint8Array | string): string => (typeof bytes === 'string' ? bytes : decoder.decode(bytes));

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

const methodOf = (message: unknown): unknown =>
  typeof message === 'object' && message !== null ? (message as { method?: unknown }).method : undefined;

/**
 * The front of a fault-injecting replay: audits every request, answers the faults decided by the
 * request alone, and wraps the response of the others so their streams are cut or coalesced.
 */
export class FaultFront {
  readonly requests: AuditedRequest[] = [];
  private calls = 0;
  private resumesDropped = 0;
  private readonly answered = new Map<string, number>();
  private readonly gone = new Set<string>();

  constructor(private readonly faults: ReplayFaults = {}) {}

  /**
   * Audits `request`; answers it and returns `undefined` when a fault does, else the request to
   * answer (its body rewritten by a fault that hands it on changed) and the sink to answer it on.
   */
  admit(
    request: IncomingRequest,
    sink: ResponseSink,
  ): { readonly request: IncomingRequest; readonly sink: ResponseSink } | undefined {
    const headers: Record<string, string> = {};
    for (let i = 0; i < AUDITED_HEADERS.length; i++) {
      const name = AUDITED_HEADERS[i] as (typeof AUDITED_HEADERS)[number];
      const value = request.headers[name];
      if (value !== undefined) headers[name] = value;
    }
    const message = request.httpMethod === 'POST' ? parse(request.body) : undefined;
    const isCall = methodOf(message) === 'tools/call';
    const entry: AuditedRequest = {
      at: Date.now(),
      httpMethod: request.httpMethod,
      headers,
      message,
      ...(isCall && { call: ++this.calls }),
    };
    this.requests.push(entry);
    const watched = new WatchedSink(entry, sink);
    const session = headers['mcp-session-id'];
    if (session !== undefined && this.gone.has(session)) {
      entry.fault = 'session gone: 404';
      writeAnswer(watched, refusalAnswer(unknownSession(session), null));
      return undefined;
    }
    if (request.httpMethod === 'GET') {
      const answered = this.get(entry, watched, session);
      return answered && { request, sink: answered };
    }
    if (!isCall) return { request, sink: watched };
    const { failCall, cutCall, sessionGoneAfter, inputRounds } = this.faults;
    if (failCall !== undefined && failCall.nth === entry.call) {
      entry.fault = `HTTP ${failCall.status}`;
      sendError(watched, failCall.status, -32603, `mcp-golden fault: HTTP ${failCall.status} for call ${entry.call}.`);
      return undefined;
    }
    let handed = request;
    if (inputRounds !== undefined && inputRounds > 0) {
      const step = inputRoundStep(message as Record<string, unknown>, inputRounds);
      if (step.kind === 'ask') {
        entry.fault = `input_required round ${step.round} of ${inputRounds}`;
        watched.head(200, { ...SSE_HEADERS });
        watched.write(step.event);
        watched.end();
        return undefined;
      }
      if (step.kind === 'refuse') {
        entry.fault = `input round refused: ${step.why}`;
        watched.head(200, { ...JSON_HEADERS });
        watched.write(step.text);
        watched.end();
        return undefined;
      }
      entry.fault = `input rounds done (${inputRounds}): the golden answers`;
      handed = { ...request, body: step.body };
    }
    if (session !== undefined && sessionGoneAfter !== undefined) {
      const count = (this.answered.get(session) ?? 0) + 1;
      this.answered.set(session, count);
      if (count >= sessionGoneAfter) watched.onEnd(() => this.gone.add(session));
    }
    const cut = cutCall?.nth === entry.call ? cutCall : undefined;
    if (cut) entry.fault = `stream cut after ${cut.after}${cut.stripIds ? ', no event ids' : ''}`;
    const shaped =
      cut || this.faults.coalesceFinal ? shapedSink(watched, cut, this.faults.coalesceFinal === true) : watched;
    const { keepAliveMs } = this.faults;
    return { request: handed, sink: keepAliveMs ? keepAliveSink(shaped, keepAliveMs) : shaped };
  }

  private get(entry: AuditedRequest, sink: ResponseSink, session: string | undefined): ResponseSink | undefined {
    const resuming = entry.headers['last-event-id'] !== undefined;
    const drop = resuming ? this.resumesDropped < (this.faults.dropResumes ?? 0) : this.faults.flapGets === true;
    if (!drop) return sink;
    if (resuming) this.resumesDropped += 1;
    entry.fault = resuming ? 'resumption dropped before any event' : 'GET answered and closed at once';
    sink.head(200, { ...SSE_HEADERS, ...(session !== undefined && { 'mcp-session-id': session }) });
    sink.end();
    return undefined;
  }
}

const PROGRESS = Buffer.from('notifications/progress');
const RESULT_KEY = Buffer.from('"result"');
const ERROR_KEY = Buffer.from('"error"');
const RESULT = /"(result|error)"\s*:/;

const bufferOf = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Whether a write carries a progress notification: its bytes searched as they are, not decoded. */
const carriesProgress = (bytes: Uint8Array | string): boolean =>
  typeof bytes === 'string' ? bytes.includes('notifications/progress') : bufferOf(bytes).includes(PROGRESS);

/** Whether `key` stands in `buffer` followed by JSON whitespace and a colon (a member, not a word in a string). */
function memberIn(buffer: Buffer, key: Buffer): boolean {
  for (let at = buffer.indexOf(key); at !== -1; at = buffer.indexOf(key, at + 1)) {
    let i = at + key.length;
    while (buffer[i] === 0x20 || buffer[i] === 0x09 || buffer[i] === 0x0a || buffer[i] === 0x0d) i++;
    if (buffer[i] === 0x3a) return true;
  }
  return false;
}

/**
 * Whether a write carries a result or an error member, its bytes searched as they are: decoding them
 * (a result of megabytes, on every replay) cost a long_output replay to 50 sessions 3x the CPU of a
 * plain server and 42 MB of strings.
 */
function carriesResult(bytes: Uint8Array | string): boolean {
  if (typeof bytes === 'string') return RESULT.test(bytes);
  const buffer = bufferOf(bytes);
  return memberIn(buffer, RESULT_KEY) || memberIn(buffer, ERROR_KEY);
}

/**
 * A sink that notes on its entry what was written and when, and who ended the response. Every
 * response of a replay goes through one (the audit is always kept): a class, not a closure per
 * method per response, and a write is looked at only until both of its times are known, by a
 * search of its bytes rather than a decoding of every event.
 */
class WatchedSink implements ResponseSink {
  private ends: (() => void)[] | undefined;

  constructor(
    private readonly entry: AuditedRequest,
    private readonly sink: ResponseSink,
  ) {
    sink.onClose(() => {
      entry.closedByClientAt ??= Date.now();
    });
  }

  private note(bytes: Uint8Array | string): void {
    const entry = this.entry;
    if (entry.firstProgressAt === undefined && carriesProgress(bytes)) entry.firstProgressAt = Date.now();
    if (entry.resultAt === undefined && carriesResult(bytes)) entry.resultAt = Date.now();
  }

  head(status: number, headers: Record<string, string>): void {
    this.entry.status ??= status;
    this.sink.head(status, headers);
  }

  write(bytes: Uint8Array | string): void {
    this.note(bytes);
    this.sink.write(bytes);
  }

  writeAll(pieces: readonly Uint8Array[]): void {
    for (const piece of pieces) this.note(piece);
    if (this.sink.writeAll) this.sink.writeAll(pieces);
    else for (const piece of pieces) this.sink.write(piece);
  }

  flush(): void {
    this.sink.flush?.();
  }

  end(): void {
    if (this.entry.closedByClientAt === undefined) this.entry.endedAt ??= Date.now();
    this.sink.end();
    const ends = this.ends;
    this.ends = undefined;
    if (ends) for (const listener of ends) listener();
  }

  onClose(listener: () => void): void {
    this.sink.onClose(listener);
  }

  onEnd(listener: () => void): void {
    this.ends ??= [];
    this.ends.push(listener);
  }
}

const EVENT_END = /\r\n\r\n|\n\n|\r\r/;

/**
 * A response cut short (`cut`) and/or with its last progress held back to leave with the result
 * (`coalesce`): works on whole SSE events, so it wraps the client's sink, outside any re-chunking.
 */
function shapedSink(sink: ResponseSink, cut: ReplayFaults['cutCall'], coalesce: boolean): ResponseSink {
  let pending = '';
  let held = '';
  let done = false;
  const finish = (): void => {
    done = true;
    sink.end();
  };
  const emit = (event: string): void => {
    if (done) return;
    let text = cut?.stripIds ? event.replace(/^id:[^\r\n]*(\r\n|\r|\n)/gm, '') : event;
    if (cut?.after === 'priming' && /^id:/m.test(event) && /^data: ?(\r\n|\r|\n)/m.test(event)) {
      sink.write(text);
      finish();
      return;
    }
    const isProgress = event.includes('"notifications/progress"');
    if (coalesce && isProgress) {
      // Only the last progress before the result waits for it: an earlier one leaves when the next comes.
      if (held !== '') sink.write(held);
      held = text;
      return;
    }
    text = held + text;
    held = '';
    if (text !== '') sink.write(text);
    if (cut?.after === 'progress' && isProgress) finish();
  };
  return {
    head(status, headers) {
      if (done) return;
      sink.head(status, headers);
      if (cut?.after === 'head') finish();
    },
    write(bytes) {
      if (done) return;
      pending += textOf(bytes);
      for (let match = EVENT_END.exec(pending); match; match = EVENT_END.exec(pending)) {
        const end = match.index + match[0].length;
        emit(pending.slice(0, end));
        pending = pending.slice(end);
      }
    },
    end() {
      if (done) return;
      if (pending !== '' || held !== '') sink.write(held + pending);
      finish();
    },
    onClose: (listener) => sink.onClose(listener),
  };
}
