import { bypass, type HttpHandler, http } from 'msw';
import { GoldenError } from '../errors.js';
import type { Pace } from '../replay/pacing.js';
import type { Transcript } from '../transcript/frame.js';
import { createReplayHandlers } from './create-replay-handlers.js';

/** What `useGolden(name, { target })` of `mcp-golden/vitest` resolved to, as {@link createGoldenHandlers} reads it. */
export interface GoldenHandlersEndpoint {
  readonly mode: 'record' | 'replay';
  /** Where the recording proxy (record) or the replay (replay) listens. */
  readonly url: string;
  readonly path: string;
  /** Aborted when the test ends. */
  readonly signal: AbortSignal;
  /** The golden and its pacing, in replay mode. */
  readonly replaying?: { readonly golden: Transcript; readonly pace: Pace };
}

/** Options of {@link createGoldenHandlers}. */
export interface GoldenHandlersOptions {
  /** The URL the code under test calls, e.g. `http://upstream.test/mcp`. */
  readonly url: string;
}

// Hop-by-hop headers belong to one connection, not to the request or response forwarded.
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host', 'content-length'];

/**
 * The upstream's body as a plain (not byte) stream. msw hands the client a tee of the mocked
 * body; a tee of fetch's byte stream pulls only when a branch reads, so the client's
 * `body.cancel()` (the SDK v1 client cancels each 202 answer) waits forever on the branch msw keeps.
 */
function plainBody(upstream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = upstream.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** Forwards one intercepted request to the recording proxy, past msw, streaming its answer back. */
async function forward(request: Request, proxy: string): Promise<Response> {
  const headers = new Headers(request.headers);
  for (const name of HOP_BY_HOP) headers.delete(name);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const answer = await fetch(
    bypass(proxy, {
      method: request.method,
      headers,
      signal: request.signal,
      ...(hasBody && { body: await request.arrayBuffer() }),
    }),
  );
  const out = new Headers(answer.headers);
  for (const name of HOP_BY_HOP) out.delete(name);
  // fetch has decoded the body already; msw would decode it again.
  out.delete('content-encoding');
  const body = answer.body === null ? null : plainBody(answer.body);
  return new Response(body, { status: answer.status, statusText: answer.statusText, headers: out });
}

function checkedUrl(options: GoldenHandlersOptions | undefined): string {
  const url = options?.url;
  if (typeof url !== 'string' || !/^https?:\/\//.test(url) || !URL.canParse(url)) {
    throw new GoldenError(
      'E_USAGE',
      `[mcp-golden] createGoldenHandlers needs the URL the code under test calls: expected { url: 'http://…' }, got ${JSON.stringify(url)}. For example: createGoldenHandlers(golden, { url: 'http://upstream.test/mcp' }).`,
    );
  }
  return url;
}

/**
 * What `useGolden(name, { target })` of `mcp-golden/vitest` resolved to, as msw 2.x handlers on
 * `url` (the URL the code under test calls): in `replay` mode they serve the golden in process
 * (as {@link createReplayHandlers}, paced as `useGolden` was asked); in `record` mode they forward
 * every request to `useGolden`'s recording proxy (past msw) and stream its answers back, so the
 * golden is recorded as without msw. They stop when the test ends; `server.resetHandlers()`
 * removes them.
 *
 * @example
 * const server = setupServer()
 * beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
 * afterEach(() => server.resetHandlers())
 * afterAll(() => server.close())
 *
 * test('lists the tools', async () => {
 *   const golden = await useGolden('tools', { target: 'http://127.0.0.1:3000/mcp' })
 *   server.use(...createGoldenHandlers(golden, { url: 'http://upstream.test/mcp' }))
 *   // the code under test calls http://upstream.test/mcp
 * })
 */
export function createGoldenHandlers(endpoint: GoldenHandlersEndpoint, options: GoldenHandlersOptions): HttpHandler[] {
  const url = checkedUrl(options);
  if (typeof endpoint !== 'object' || endpoint === null || typeof endpoint.url !== 'string') {
    const got =
      endpoint !== null && typeof endpoint === 'object' && 'command' in endpoint ? 'a stdio endpoint' : 'no url';
    throw new GoldenError(
      'E_USAGE',
      `[mcp-golden] createGoldenHandlers serves what useGolden(name, { target: URL }) resolved to: expected an endpoint with a url, got ${got}. msw intercepts HTTP only; give useGolden the server's URL.`,
    );
  }
  if (endpoint.mode === 'replay') {
    if (endpoint.replaying === undefined) {
      throw new GoldenError(
        'E_USAGE',
        `[mcp-golden] createGoldenHandlers: the endpoint of ${endpoint.path} is in replay mode but carries no golden. Pass what useGolden resolved to, unchanged.`,
      );
    }
    const replay = createReplayHandlers(endpoint.replaying.golden, { url, pace: endpoint.replaying.pace });
    endpoint.signal.addEventListener('abort', () => replay.close(), { once: true });
    return replay.handlers;
  }
  const proxy = endpoint.url;
  return [http.all(url, ({ request }) => (endpoint.signal.aborted ? undefined : forward(request, proxy)))];
}
