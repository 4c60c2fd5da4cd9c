/** How a body's bytes are cut into frames: SSE events, one JSON document, stdio lines, or other text. */
export type BodyKind = 'sse' | 'json' | 'text' | 'stdio';

/** The media type of a `content-type` (or one `Accept` entry): parameters dropped, lower case; `''` for none. */
export function mediaTypeOf(header: string | null | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * The kind of an HTTP body, from its `content-type`: the one place that tells an SSE stream from a
 * JSON document, for the recorder, the replayer and the client alike. Case and parameters
 * (`; charset=utf-8`) do not matter; `+json` types (`application/problem+json`) are JSON; anything
 * else, or no header, is text.
 */
export function bodyKindOf(contentType: string | null | undefined): Exclude<BodyKind, 'stdio'> {
  const type = mediaTypeOf(contentType);
  if (type === 'text/event-stream') return 'sse';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  return 'text';
}
