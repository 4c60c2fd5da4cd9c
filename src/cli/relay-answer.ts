import type { ResponseSink } from '../replay/http-exchange.js';

/**
 * Relays a live server's answer to the replay's client, as the pass-through does in both eras: the
 * status with the headers named in `names` (and `extra`), then the body read by read, each flushed
 * at once so progress streams through. `onHead` runs once the head is written (the request's
 * outcome; after it a failure can only end the stream, not answer with an error).
 */
export async function relayAnswer(
  response: Response,
  sink: ResponseSink,
  names: readonly string[],
  onHead: () => void,
  extra: Readonly<Record<string, string>> = {},
): Promise<void> {
  const headers: Record<string, string> = {};
  for (const name of names) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  sink.head(response.status, { ...headers, ...extra });
  onHead();
  const reader = response.body?.getReader();
  for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
    sink.write(read.value);
    sink.flush?.();
  }
  sink.end();
}
