import type { ResponseSink } from '../http-exchange.js';

/** One request the replay passed through to the live server. */
export interface PassedThrough {
  /** `tools/call echo`, `resources/read file:///x`, or the bare method. */
  readonly request: string;
  /** What the live server did with it: its HTTP status, answered, or the error that kept it from answering. */
  readonly outcome: string;
}

/** How the replay's report names a passed-through message: `tools/call echo`, `resources/read file:///x`, the bare method, or `a response`. */
export function describePassed(message: { method?: unknown; params?: unknown }): string {
  const method = typeof message.method === 'string' ? message.method : 'a response';
  const params = (typeof message.params === 'object' && message.params !== null ? message.params : {}) as {
    name?: unknown;
    uri?: unknown;
  };
  const what = params.name ?? params.uri;
  return typeof what === 'string' ? `${method} ${what}` : method;
}

/** {@link describePassed} of a request body, `an unparsable body` for one that is no JSON. */
export function describeBody(body: string): string {
  try {
    return describePassed(JSON.parse(body) as { method?: unknown; params?: unknown });
  } catch {
    return 'an unparsable body';
  }
}

/** What a pass-through accepts from the live server when the client named nothing. */
export const PASSTHROUGH_ACCEPT = 'application/json, text/event-stream';

/** The JSON-RPC id of a request body, or `null` when it has none or is no JSON. */
function idOf(body: string): unknown {
  try {
    return (JSON.parse(body) as { id?: unknown }).id ?? null;
  } catch {
    return null;
  }
}

/** Answers the request `body` with a JSON-RPC error (-32603) carrying `message`, as the pass-through refuses. */
export function refuseRequest(sink: ResponseSink, body: string, message: string): void {
  sink.head(200, { 'content-type': 'application/json' });
  sink.write(JSON.stringify({ jsonrpc: '2.0', id: idOf(body), error: { code: -32603, message } }));
  sink.end();
}

/** Why a pass-through could not reach the live server `label`, and what to do. */
export const unreachable = (label: string, why: string): string =>
  `[mcp-golden] --unmatched passthrough could not reach ${label}: ${why}. Check that the live server runs, or replay with --unmatched error.`;

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
