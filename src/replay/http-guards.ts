import { isAllowedOrigin } from '../http/origin-policy.js';
import { mediaTypeOf } from '../transcript/body-kind.js';
import type { IncomingRequest, ResponseSink } from './http-exchange.js';
import { JSON_HEADERS, jsonRpcError } from './json-rpc-error.js';

/** Default largest request body the HTTP replayer reads: 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Options of the HTTP rules every replayed request goes through. */
export interface HttpRuleOptions {
  /** Browser origins allowed besides loopback ones (`*` allows any). @default [] */
  readonly allowedOrigins?: readonly string[];
  /** Largest request body read, in bytes; larger ones get `413`. @default 4 MiB */
  readonly maxBodyBytes?: number;
}

/** What the client accepts for a POST answer. */
export interface Accepts {
  readonly json: boolean;
  readonly sse: boolean;
}

/** The last `Accept` parsed, and what it parsed to: a client sends the same one with every request. */
let lastAccept: { readonly header: string | undefined; readonly accepts: Accepts } | undefined;

/** Parses `Accept` into the two media types a Streamable HTTP answer can have (the framing; which Accept is refused is the request reader's). */
export function acceptsOf(header: string | undefined): Accepts {
  if (lastAccept !== undefined && lastAccept.header === header) return lastAccept.accepts;
  const types = (header ?? '').split(',').map(mediaTypeOf);
  const any = types.includes('*/*');
  const accepts: Accepts = {
    json: any || types.includes('application/json') || types.includes('application/*'),
    sse: any || types.includes('text/event-stream') || types.includes('text/*'),
  };
  lastAccept = { header, accepts };
  return accepts;
}

/** Sends one complete JSON-RPC error answer. */
export function sendError(
  sink: ResponseSink,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  sink.head(status, { ...JSON_HEADERS, ...headers });
  sink.write(jsonRpcError(null, code, message));
  sink.end();
}

/** Answers `413` without reading or echoing the body. */
export function refuseLargeBody(sink: ResponseSink, limit: number): void {
  sendError(
    sink,
    413,
    -32600,
    `Request body too large: more than ${limit} bytes. The replayer reads at most ${limit} bytes per request; send a smaller message or raise the limit (maxBodyBytes, or --max-body-bytes on the CLI).`,
  );
}

/**
 * Applies the Streamable HTTP rules that do not need the body: Origin (`403`), method (`405`),
 * Content-Type (`415`), body size (`413`). Answers and returns true when the request is refused.
 * `Accept` (`406`) is the request reader's: a 2026-07-28 server does not ask for it.
 */
export function refuseRequest(request: IncomingRequest, sink: ResponseSink, options: HttpRuleOptions): boolean {
  const origin = request.headers.origin;
  if (!isAllowedOrigin(origin, options.allowedOrigins ?? [])) {
    sendError(
      sink,
      403,
      -32000,
      `Forbidden: Origin "${String(origin).slice(0, 100)}" is not allowed (the spec requires rejecting foreign origins against DNS rebinding). Loopback origins are always allowed; allow others with allowedOrigins, or --allow-origin on the CLI.`,
    );
    return true;
  }
  const method = request.httpMethod;
  if (method !== 'POST' && method !== 'GET' && method !== 'DELETE') {
    sendError(sink, 405, -32000, `Method not allowed: ${method.slice(0, 20)}. Use POST, GET or DELETE.`, {
      allow: 'GET, POST, DELETE',
    });
    return true;
  }
  if (method !== 'POST') return false;
  const contentType = request.headers['content-type'];
  if (contentType !== 'application/json' && mediaTypeOf(contentType) !== 'application/json') {
    sendError(
      sink,
      415,
      -32000,
      `Unsupported Media Type: expected Content-Type application/json, got ${JSON.stringify((request.headers['content-type'] ?? '').slice(0, 100))}.`,
    );
    return true;
  }
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  // A UTF-16 unit is at most 3 bytes of UTF-8: a body that short cannot be over the limit.
  if (request.body.length * 3 > limit && Buffer.byteLength(request.body, 'utf8') > limit) {
    refuseLargeBody(sink, limit);
    return true;
  }
  return false;
}
