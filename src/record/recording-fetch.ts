import { type BodyKind, bodyKindOf } from '../transcript/body-kind.js';
import { setOwn } from '../transcript/canonical-json.js';
import type { FrameSink } from './frame-sink.js';

/** The `fetch` signature the SDK's `StreamableHTTPClientTransport` accepts. */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

const encoder = new TextEncoder();

/**
 * The reason a client gives when it cancels a tapped response body to close the stream on purpose
 * (the modern era's cancel): the tap then records a `close` frame before the body's end.
 */
export const CLIENT_CLOSED_STREAM = 'mcp-golden: the client closed the stream';

function headerRecord(headers: HeadersInit | Headers | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of new Headers(headers ?? undefined).entries()) setOwn(out, name, value);
  return out;
}

async function bodyBytes(body: RequestInit['body']): Promise<Uint8Array | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return new Uint8Array(await new Response(body).arrayBuffer());
}

function pathOf(url: string | URL): string {
  const parsed = new URL(String(url));
  return `${parsed.pathname}${parsed.search}`;
}

/**
 * Wraps `fetch` so every request and every read of every response body is recorded into `sink`
 * with its own time stamp, while the caller gets the same bytes at the same moments. Hand it to
 * the SDK: `new StreamableHTTPClientTransport(url, { fetch: recordingFetch(sink) })`.
 *
 * @example
 * const sink = new FrameSink()
 * const transport = new StreamableHTTPClientTransport(new URL(server.url), { fetch: recordingFetch(sink) })
 */
export function recordingFetch(sink: FrameSink, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const exchange = sink.nextExchange();
    const method = (init?.method ?? 'GET').toUpperCase();
    const requestHeaders = headerRecord(init?.headers);
    sink.request(exchange, method, pathOf(url), requestHeaders);
    const requestBody = await bodyBytes(init?.body);
    if (requestBody && requestBody.length > 0) {
      sink.wholeBody(exchange, 'client->server', bodyKindOf(requestHeaders['content-type']), requestBody);
    }
    // A stream body can be read once: send the bytes the tap already read in its place.
    const consumed = init?.body !== undefined && init.body !== null && typeof init.body !== 'string';
    const sent: RequestInit | undefined =
      consumed && requestBody ? { ...init, body: requestBody as Uint8Array<ArrayBuffer> } : init;
    let response: Response;
    try {
      response = await base(url, sent);
    } catch (error) {
      sink.push({ dir: 'server->client', channel: 'end', exchange, reason: 'error', error: String(error) });
      throw error;
    }
    sink.response(exchange, response.status, headerRecord(response.headers));
    if (!response.body) {
      sink.push({ dir: 'server->client', channel: 'end', exchange, reason: 'complete' });
      return response;
    }
    const kind: BodyKind = bodyKindOf(response.headers.get('content-type'));
    const tap = sink.body(exchange, 'server->client', kind);
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { value, done } = await reader.read();
          if (done) {
            tap.end('complete');
            controller.close();
            return;
          }
          tap.read(value);
          controller.enqueue(value);
        } catch (error) {
          tap.end('error', String(error));
          controller.error(error);
        }
      },
      cancel(reason) {
        if (reason === CLIENT_CLOSED_STREAM) sink.push({ dir: 'client->server', channel: 'close', exchange });
        tap.end('cancelled');
        return reader.cancel(reason);
      },
    });
    const tapped = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // The SDK reads response.url in redirect and error messages.
    Object.defineProperty(tapped, 'url', { value: response.url });
    return tapped;
  };
}
