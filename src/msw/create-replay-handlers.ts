import { type HttpHandler, http } from 'msw';
import { ReplayEngine } from '../replay/replay-engine.js';
import type { ReplayOptions, ReplayReport, ResponseSink } from '../replay/replay-options.js';
import type { Transcript } from '../transcript/frame.js';

/** Options of {@link createReplayHandlers}. */
export interface ReplayHandlersOptions extends ReplayOptions {
  /** The upstream URL the code under test calls, e.g. `http://upstream.test/mcp`. */
  readonly url: string;
}

/** msw handlers serving goldens, with the replay's report. */
export interface ReplayHandlers {
  readonly handlers: HttpHandler[];
  report(): ReplayReport;
  /** Stops pending timers and ends open streams. */
  close(): void;
}

const encoder = new TextEncoder();
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function streamingSink(resolve: (response: Response) => void): ResponseSink {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let done = false;
  const listeners: (() => void)[] = [];
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      if (done) return;
      done = true;
      for (const listener of listeners) listener();
    },
  });
  return {
    head(status, headers) {
      resolve(new Response(NULL_BODY.has(status) ? null : body, { status, headers }));
    },
    write(bytes) {
      if (!done) controller?.enqueue(typeof bytes === 'string' ? encoder.encode(bytes) : bytes);
    },
    end() {
      if (done) return;
      done = true;
      controller?.close();
    },
    onClose(listener) {
      listeners.push(listener);
    },
  };
}

/**
 * The replay as msw 2.x handlers, for clients and gateways running in the test's own process:
 * `http.all` on the upstream URL answering with a paced `ReadableStream` (msw's `sse()` is GET-only
 * and needs EventSource, so it is not used).
 *
 * @example
 * const replay = createReplayHandlers([golden], { url: 'http://upstream.test/mcp' })
 * const server = setupServer(...replay.handlers)
 * server.listen({ onUnhandledRequest: 'error' })
 */
export function createReplayHandlers(
  goldens: Transcript | readonly Transcript[],
  options: ReplayHandlersOptions,
): ReplayHandlers {
  const engine = new ReplayEngine(Array.isArray(goldens) ? goldens : [goldens as Transcript], options);
  const handler = http.all(options.url, async ({ request }) => {
    const body = await request.text();
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return new Promise<Response>((resolve) => {
      engine.handle({ httpMethod: request.method, headers, body }, streamingSink(resolve));
    });
  });
  return { handlers: [handler], report: () => engine.report(), close: () => engine.close() };
}
