import type { IncomingMessage, ServerResponse } from 'node:http';
import { mediaTypeOf } from '../transcript/body-kind.js';
import { type HttpAnswer, JSON_ANSWER_HEADERS } from './answering-era.js';
import { isAllowedOrigin } from './origin-policy.js';
import { UNPARSEABLE } from './read-request.js';

/** Default largest request body read: 4 MiB, as the SDK v2 server's `maxRequestBodySize`. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Longest wait for the rest of a POST body its Content-Length announces. */
export const BODY_WAIT_MS = 2000;

/** How far past the body limit a refused body is read (and dropped) before the connection is cut. */
const DISCARD_LIMIT_FACTOR = 32;

/** A request as it came through the front door: its HTTP method, headers (names lower-cased, one string each) and body. */
export interface HttpRequest {
  readonly httpMethod: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
}

/** What the front door of `serve` and `replay` lets in. */
export interface FrontDoorOptions {
  /** Browser origins allowed besides loopback ones (`*` allows any); others get `403`. @default [] */
  readonly allowedOrigins?: readonly string[];
  /** Largest request body read, in bytes; larger ones get `413`. @default 4 MiB */
  readonly maxBodyBytes?: number;
}

/** A refusal of the front door: a JSON-RPC error without an id. */
const refused = (status: number, code: number, message: string, headers: Record<string, string> = {}): HttpAnswer => ({
  status,
  headers: { ...JSON_ANSWER_HEADERS, ...headers },
  body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }),
});

/** `413` without reading or echoing the body: the SDK v2 server's status and code. */
const tooLarge = (limit: number): HttpAnswer =>
  refused(
    413,
    -32000,
    `Request body too large: more than ${limit} bytes. At most ${limit} bytes are read per request; send a smaller message or raise the limit (maxBodyBytes, or --max-body-bytes on the CLI).`,
  );

/**
 * The front door's refusals that need only the head of a request, answered before its body is read
 * (as the SDK v2 server does): Origin (`403`, against DNS rebinding), the HTTP method (`405`) and a
 * POST's Content-Type (`415`).
 */
export function headRefusal(
  httpMethod: string,
  headers: HttpRequest['headers'],
  options: FrontDoorOptions,
): HttpAnswer | undefined {
  const origin = headers.origin;
  if (!isAllowedOrigin(origin, options.allowedOrigins ?? [])) {
    return refused(
      403,
      -32000,
      `Forbidden: Origin "${String(origin).slice(0, 100)}" is not allowed (the spec requires rejecting foreign origins against DNS rebinding). Loopback origins are always allowed; allow others with allowedOrigins, or --allow-origin on the CLI.`,
    );
  }
  if (httpMethod !== 'POST' && httpMethod !== 'GET' && httpMethod !== 'DELETE') {
    return refused(405, -32000, `Method not allowed: ${httpMethod.slice(0, 20)}. Use POST, GET or DELETE.`, {
      allow: 'GET, POST, DELETE',
    });
  }
  if (httpMethod !== 'POST') return undefined;
  const contentType = headers['content-type'];
  if (contentType !== 'application/json' && mediaTypeOf(contentType) !== 'application/json') {
    return refused(
      415,
      -32000,
      `Unsupported Media Type: Content-Type must be application/json, got ${JSON.stringify((contentType ?? '').slice(0, 100))}.`,
    );
  }
  return undefined;
}

/**
 * The one front door of `serve` and `replay`: the head's refusals ({@link headRefusal}), then the
 * body's size (`413`). `Accept` (`406`) is the request reader's: a 2026-07-28 server does not ask for it.
 */
export function doorRefusal(request: HttpRequest, options: FrontDoorOptions): HttpAnswer | undefined {
  const head = headRefusal(request.httpMethod, request.headers, options);
  if (head) return head;
  if (request.httpMethod !== 'POST') return undefined;
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  // A UTF-16 unit is at most 3 bytes of UTF-8: a body that short cannot be over the limit.
  if (request.body.length * 3 > limit && Buffer.byteLength(request.body, 'utf8') > limit) return tooLarge(limit);
  return undefined;
}

/** `413` before a body is read, when the length it declares is over the limit (the SDK v2 server's early refusal). */
export function declaredTooLarge(
  declared: string | null | undefined,
  options: FrontDoorOptions,
): HttpAnswer | undefined {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return Number(declared ?? 0) > limit ? tooLarge(limit) : undefined;
}

/** A POST body parsed: its JSON, or {@link UNPARSEABLE}. */
export function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // The parser's message quotes the body: it is not repeated back.
    return UNPARSEABLE;
  }
}

/**
 * Takes one node:http request in through the front door: the endpoint's path (`404`), then its
 * body, read once and bounded: a declared or read length over the limit is answered `413` at once
 * and the rest dropped (cut off far beyond it), and a body shorter than its Content-Length within
 * {@link BODY_WAIT_MS} (a gateway that rewrote it and left the header stale) `400`, the connection
 * closed after; a request its head refuses ({@link headRefusal}: Origin, method, Content-Type) is
 * answered before any of its body is read. Hands the whole request to `take`.
 */
export function takeNodeRequest(
  req: IncomingMessage,
  res: ServerResponse,
  options: FrontDoorOptions & { readonly path: string },
  take: (request: HttpRequest) => void,
): void {
  const path = options.path;
  const target = req.url ?? '/';
  // A request for the path as written (every client's) is matched without parsing a URL; any other is parsed.
  const plain = target === path || target.startsWith(`${path}?`);
  if (!plain && new URL(target, 'http://127.0.0.1').pathname !== new URL(path, 'http://127.0.0.1').pathname) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end(`Not found: the MCP endpoint is ${path}\n`);
    return;
  }
  const headers: Record<string, string | undefined> = {};
  for (const name in req.headers) {
    const value = req.headers[name];
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const httpMethod = req.method ?? 'GET';
  const head = headRefusal(httpMethod, headers, options);
  if (head) {
    // Refused on its head: the body is not read (node drops it; a flood far past the limit is cut off).
    const limit = DISCARD_LIMIT_FACTOR * (options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) req.destroy();
    });
    res.writeHead(head.status, { ...head.headers }).end(head.body);
    return;
  }
  readBounded(req, res, options, (body) => take({ httpMethod, headers, body }));
}

/** Reads a request's body whole, or answers why it will not be read (`413`, a stale Content-Length's `400`). */
function readBounded(
  req: IncomingMessage,
  res: ServerResponse,
  options: FrontDoorOptions,
  done: (body: string) => void,
): void {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const chunks: Buffer[] = [];
  let size = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const refuse = (answer: HttpAnswer): void => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    chunks.length = 0;
    res.writeHead(answer.status, { ...answer.headers }).end(answer.body);
  };
  const declared = req.headers['content-length'];
  // Only a declared length can be stale; a chunked body is waited for.
  timer =
    declared === undefined || declared === '0'
      ? undefined
      : setTimeout(() => {
          req.pause();
          const got = Buffer.concat(chunks).toString('utf8').slice(0, 200);
          res.once('finish', () => req.socket.destroy());
          const why = `Bad request: Content-Length says ${declared} bytes, but only ${size} arrived within ${BODY_WAIT_MS} ms (a body rewritten without updating Content-Length?). Received: ${got}`;
          refuse(refused(400, -32000, why));
        }, BODY_WAIT_MS);
  timer?.unref();
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (stopped) {
      if (size > DISCARD_LIMIT_FACTOR * limit) req.destroy();
    } else if (size <= limit) chunks.push(chunk);
    else refuse(tooLarge(limit));
  });
  const early = declaredTooLarge(declared, options);
  if (early) refuse(early);
  req.on('error', () => {
    clearTimeout(timer);
    res.destroy();
  });
  req.on('end', () => {
    clearTimeout(timer);
    if (!stopped) done(Buffer.concat(chunks).toString('utf8'));
  });
}
