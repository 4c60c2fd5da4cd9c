import { type HttpHandler, http } from 'msw';
import { writeAnswer } from '../http/answering-era.js';
import { declaredTooLarge, type FrontDoorOptions, headRefusal } from '../http/front-door.js';
import type { ResponseSink } from '../replay/http-exchange.js';
import { createHttpReplay } from '../replay/http-replay.js';
import type { ReplayOptions } from '../replay/replay-engine.js';
import type { GoldenInput } from '../replay/replay-plan.js';
import type { ReplayReport } from '../replay/replay-report.js';
import type { Transcript } from '../transcript/frame.js';

/** Options of {@link createReplayHandlers}. */
export interface ReplayHandlersOptions extends ReplayOptions, FrontDoorOptions {
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
    // Only a large event comes in pieces: its recorded slices go out as they are, shared, not copied.
    writeAll(pieces) {
      if (!done) for (const piece of pieces) controller?.enqueue(piece as Uint8Array);
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
 * The replay as msw 2.x handlers (the engine's HTTP adapter, as the loopback server uses), for clients and gateways running in the test's own process:
 * `http.all` on the upstream URL answering with a paced `ReadableStream` (msw's `sse()` is GET-only
 * and needs EventSource, so it is not used).
 *
 * @example
 * const replay = createReplayHandlers([golden], { url: 'http://upstream.test/mcp' })
 * const server = setupServer(...replay.handlers)
 * server.listen({ onUnhandledRequest: 'error' })
 */
export function createReplayHandlers(
  goldens: Transcript | GoldenInput | readonly GoldenInput[],
  options: ReplayHandlersOptions,
): ReplayHandlers {
  const replay = createHttpReplay(Array.isArray(goldens) ? goldens : [goldens as GoldenInput], options, options);
  const handler = http.all(options.url, async ({ request }) => {
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    // Refused on its head (Origin, method, Content-Type) or its declared size: the body is not read.
    const early =
      headRefusal(request.method, headers, options) ?? declaredTooLarge(request.headers.get('content-length'), options);
    if (early) return new Promise<Response>((resolve) => writeAnswer(streamingSink(resolve), early));
    const body = await request.text();
    return new Promise<Response>((resolve) => {
      replay.handle({ httpMethod: request.method, headers, body }, streamingSink(resolve));
    });
  });
  return { handlers: [handler], report: () => replay.report(), close: () => replay.close() };
}
