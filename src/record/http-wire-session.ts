import { setTimeout as sleep } from 'node:timers/promises';
import { GoldenError, isGoldenError } from '../errors.js';
import { bodyKindOf } from '../transcript/body-kind.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { parseJsonRpc } from '../transcript/json-rpc.js';
import { modernHeaders } from '../transcript/modern-envelope.js';
import { SseParser } from '../transcript/sse.js';
import { connectionError, statusError, statusHint } from './connection-error.js';
import { sseBlocksOfRead } from './frame-sink.js';
import { CLIENT_CLOSED_STREAM, type FetchLike } from './recording-fetch.js';
import type { CallStream, StreamedMessage, WireSession } from './wire-session.js';

/** Options of {@link openHttpSession}. */
export interface HttpSessionOptions {
  /** The fetch to send with (usually a {@link recordingFetch}). */
  readonly fetch: FetchLike;
  /** Protocol version sent in `MCP-Protocol-Version` after initialize. */
  readonly protocolVersion: string;
  /** Extra request headers (an Authorization header for a gateway, say). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Longest wait for response headers, a short body, or any message. @default 30000 */
  readonly timeoutMs?: number;
  /** How messages name the target (the URL without its secrets). @default the URL */
  readonly label?: string;
}

/** Resolves with `promise`, or rejects with `E_TIMEOUT` saying `what` after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new GoldenError(
            'E_TIMEOUT',
            `${what}: nothing arrived within ${ms} ms. Check that the target is running and forwards streams, or raise the timeout.`,
          ),
        ),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const decoder = new TextDecoder();

/** How long one wait on a quiet watched stream lasts before its loop waits again. */
const WATCH_IDLE_MS = 60_000;

/** Reads JSON-RPC messages from an SSE or JSON response body, one at a time. */
class ResponseStream implements CallStream {
  lastEventId: string | undefined;
  retryMs: number | undefined;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private readonly parser = new SseParser();
  /** Messages parsed and not yet taken, each with the SSE id in effect after it. */
  private readonly queue: { readonly taken: StreamedMessage; readonly idAfter: string | undefined }[] = [];
  /** The id of the last event parsed, which may be ahead of the last taken (one read can carry several). */
  private parsedEventId: string | undefined;
  private pendingRead: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  private done = false;
  private json: Uint8Array[] | undefined;

  /** `readAs`: how to read the body; by default, SSE when its `content-type` says so, else one JSON document. */
  constructor(
    response: Response,
    private readonly what: string,
    readAs: 'sse' | 'json' = bodyKindOf(response.headers.get('content-type')) === 'sse' ? 'sse' : 'json',
  ) {
    this.reader = response.body?.getReader();
    if (readAs === 'json') this.json = [];
    if (!this.reader) this.done = true;
  }

  async next(timeoutMs: number): Promise<StreamedMessage | undefined> {
    while (this.queue.length === 0 && !this.done) await this.readOnce(timeoutMs);
    const next = this.queue.shift();
    // Resumption starts after the last event handed out, not the last parsed: a read that carried
    // the events after it too must not make a dropped stream resume past what the caller took.
    this.lastEventId = next === undefined || this.queue.length === 0 ? this.parsedEventId : next.idAfter;
    return next?.taken;
  }

  drop(): Promise<void> {
    return this.cancel(undefined);
  }

  close(): Promise<void> {
    return this.cancel(CLIENT_CLOSED_STREAM);
  }

  private async cancel(reason: string | undefined): Promise<void> {
    if (this.done) return;
    this.done = true;
    // Some in-process fetch stacks settle a cancel only once the source reacts; never wait long for it.
    const cancelled = this.reader?.cancel(reason).catch(() => undefined);
    await Promise.race([cancelled, sleep(250)]);
  }

  private async readOnce(timeoutMs: number): Promise<void> {
    const reader = this.reader;
    if (!reader) return;
    this.pendingRead ??= reader.read();
    const { value, done } = await withTimeout(this.pendingRead, timeoutMs, this.what);
    this.pendingRead = undefined;
    if (done) {
      this.done = true;
      if (this.json) this.enqueueJson(Buffer.concat(this.json));
      return;
    }
    if (this.json) {
      this.json.push(value);
      return;
    }
    // A tapped body was cut into blocks by the tap already: parse it once, not twice.
    for (const block of sseBlocksOfRead(value) ?? this.parser.push(value)) {
      if (block.id !== undefined) this.parsedEventId = block.id;
      if (block.retry !== undefined) this.retryMs = block.retry;
      if (block.data === undefined || block.data === '') continue;
      const message = parseJsonRpc(block.data);
      if (message)
        this.queue.push({
          taken: { message, ...(block.id !== undefined && { eventId: block.id }) },
          idAfter: this.parsedEventId,
        });
    }
  }

  private enqueueJson(bytes: Uint8Array): void {
    const message = parseJsonRpc(decoder.decode(bytes));
    if (message) this.queue.push({ taken: { message }, idAfter: this.parsedEventId });
  }
}

async function describeFailure(response: Response): Promise<string> {
  const text = await withTimeout(response.text(), 5000, 'Reading an error answer').catch(() => '');
  return `HTTP ${response.status}${text ? `: ${text.slice(0, 300)}` : ''}`;
}

/**
 * Opens a Streamable HTTP session to `url` at the wire level. Nothing is sent until the first
 * request; the session id from the response that carries one is echoed on every later request.
 */
export function openHttpSession(endpoint: string, options: HttpSessionOptions): WireSession {
  const url = options.label ?? endpoint;
  const timeoutMs = options.timeoutMs ?? 30_000;
  /** fetch with the wait for response headers bounded; the body is not (streams are read with their own bounds). */
  const timedFetch = async (init: RequestInit, what: string): Promise<Response> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      return await options.fetch(endpoint, { ...init, signal: controller.signal });
    } catch (error) {
      if (controller.signal.aborted) {
        throw new GoldenError(
          'E_TIMEOUT',
          `${what}: no response headers within ${timeoutMs} ms. Check that the target is running and answers, or raise the timeout.`,
        );
      }
      if (error instanceof GoldenError) throw error;
      throw connectionError(error, url);
    } finally {
      clearTimeout(timer);
    }
  };
  const drainBody = (response: Response, what: string): Promise<unknown> =>
    withTimeout(response.arrayBuffer(), timeoutMs, what);
  let sessionId: string | undefined;
  let initialized = false;
  /** Every stream opened, so `close()` leaves no response being read (a failed scenario may leave its call's). */
  const streams = new Set<ResponseStream>();
  let closed = false;
  /** The GET streams being watched, aborted at `close()` even before their headers came. */
  const watches = new Set<AbortController>();
  const opened = (stream: ResponseStream): ResponseStream => {
    // A request still in flight when the session closed (a scenario that failed meanwhile) is not read.
    if (closed) void stream.drop();
    else streams.add(stream);
    return stream;
  };
  const headers = (extra: Record<string, string> = {}): Record<string, string> => ({
    ...options.headers,
    ...(sessionId !== undefined && { 'mcp-session-id': sessionId }),
    ...(initialized && { 'mcp-protocol-version': options.protocolVersion }),
    ...extra,
  });
  // A modern-era request (one with the per-request envelope) carries its Mcp-* headers; a legacy one none.
  const post = (message: JsonRpcMessage, extra: Readonly<Record<string, string>> = {}): Promise<Response> =>
    timedFetch(
      {
        method: 'POST',
        headers: headers({
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...modernHeaders(message),
          ...extra,
        }),
        body: JSON.stringify(message),
      },
      `Sending ${String(message.method)} to ${url}`,
    );

  return {
    transport: 'http',
    async request(message, extraHeaders) {
      const response = await post(message, extraHeaders);
      const what = `Waiting for the answer to ${String(message.method)} at ${url}`;
      if (response.status !== 200) {
        const failure = await describeFailure(response);
        // A 2026-07-28-only server refuses the 2025 handshake with -32022 (Unsupported protocol version).
        const eraHint =
          message.method === 'initialize' && failure.includes('"code":-32022')
            ? ' The server speaks only 2026-07-28, which has no initialize: record it with --era modern (or "era": "modern"), or leave --era at auto for --target.'
            : '';
        throw statusError(
          response.status,
          `${what} failed: ${failure}. Expected HTTP 200.${eraHint}${statusHint(response.status, options.headers)}`,
        );
      }
      const returned = response.headers.get('mcp-session-id');
      if (returned) sessionId = returned;
      if (message.method === 'initialize') initialized = true;
      return opened(new ResponseStream(response, what));
    },
    async notify(message) {
      const response = await post(message);
      if (response.status !== 202 && response.status !== 200) {
        throw new GoldenError(
          'E_TARGET',
          `Sending ${String(message.method)} to ${url} failed: ${await describeFailure(response)}. Expected 202 Accepted.${statusHint(response.status, options.headers)}`,
        );
      }
      await drainBody(response, `Reading the answer to ${String(message.method)} at ${url}`);
    },
    async resume(lastEventId) {
      const get = (): Promise<Response> =>
        timedFetch(
          { method: 'GET', headers: headers({ accept: 'text/event-stream', 'last-event-id': lastEventId }) },
          `Resuming the stream after event ${lastEventId} at ${url}`,
        );
      let response = await get();
      // 409: the server has not yet noticed that the dropped stream is gone; retry briefly, as the SDK client would.
      for (let attempt = 1; response.status === 409 && attempt <= 40; attempt++) {
        await drainBody(response, `Reading a 409 answer at ${url}`);
        await sleep(25);
        response = await get();
      }
      if (response.status !== 200) {
        throw new GoldenError(
          'E_TARGET',
          `Resuming the stream after event ${lastEventId} at ${url} failed: ${await describeFailure(response)}. The target must support Last-Event-ID (an event store).`,
        );
      }
      return opened(
        new ResponseStream(response, `Waiting for the resumed stream after event ${lastEventId} at ${url}`),
      );
    },
    async listen() {
      const what = `Opening the standalone stream (GET) at ${url}`;
      const response = await timedFetch({ method: 'GET', headers: headers({ accept: 'text/event-stream' }) }, what);
      if (response.status !== 200 || bodyKindOf(response.headers.get('content-type')) !== 'sse') {
        // 405: the server sends nothing outside a request's stream, as the spec allows.
        await drainBody(response, what).catch(() => undefined);
        return undefined;
      }
      return opened(new ResponseStream(response, `Waiting on the standalone stream at ${url}`));
    },
    watch(watchOptions = {}) {
      const seen: { status: number; messages: { message: JsonRpcMessage; atMs: number }[] } = {
        status: 0,
        messages: [],
      };
      if (closed) return seen;
      const controller = new AbortController();
      watches.add(controller);
      const t0 = performance.now();
      const { lastEventId } = watchOptions;
      const what = `Watching the GET stream${lastEventId === undefined ? '' : ` after event ${lastEventId}`} at ${url}`;
      void (async () => {
        const response = await options.fetch(endpoint, {
          method: 'GET',
          headers: headers({
            accept: 'text/event-stream',
            ...(lastEventId !== undefined && { 'last-event-id': lastEventId }),
          }),
          signal: controller.signal,
        });
        seen.status = response.status;
        if (response.status !== 200) {
          await response.body?.cancel();
          return;
        }
        // A stream labelled other than JSON is read as SSE, whatever its content-type says: a gateway that
        // drops or rewrites the label still sends what the rows judge, and a live stream never ends to be read whole.
        const readAs = bodyKindOf(response.headers.get('content-type')) === 'json' ? 'json' : 'sse';
        const stream = opened(new ResponseStream(response, what, readAs));
        for (;;) {
          let next: StreamedMessage | undefined;
          try {
            next = await stream.next(WATCH_IDLE_MS);
          } catch (error) {
            if (isGoldenError(error, 'E_TIMEOUT')) continue;
            return;
          }
          if (!next) return;
          seen.messages.push({ message: next.message, atMs: performance.now() - t0 });
        }
      })()
        .catch(() => undefined)
        .finally(() => watches.delete(controller));
      return seen;
    },
    async close() {
      closed = true;
      for (const controller of watches) controller.abort();
      watches.clear();
      await Promise.all([...streams].map((stream) => stream.drop()));
      streams.clear();
      if (sessionId === undefined) return;
      const response = await timedFetch({ method: 'DELETE', headers: headers() }, `Closing the session at ${url}`);
      await drainBody(response, `Reading the DELETE answer at ${url}`);
    },
  };
}
