import type { IncomingMessage } from 'node:http';
import { batchRefusal, type HttpRefusal } from '../http/mcp-http-rules.js';
import { UNPARSEABLE } from '../http/read-request.js';

// The reference server's POST body: read once, bounded in size and in the wait for a body its
// Content-Length announces, checked by the rules serve and replay share.

/**
 * A progress token that asks the check's upstream to omit `X-Accel-Buffering: no` on the response
 * of that one call (`--check-tools` only): the check's spacing rows run with and without the
 * header through the same gateway, to say whether live streaming depends on it.
 */
export const NO_ACCEL_TOKEN_MARK = 'no-accel-header';

/** Most bytes of a POST body read: the SDK transport's own limit. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Longest wait for the rest of a POST body its Content-Length announces. */
export const BODY_WAIT_MS = 2000;

/**
 * The body of a POST, read whole: its text, or why it could not be read (larger than
 * {@link MAX_BODY_BYTES}, or fewer bytes than its Content-Length within {@link BODY_WAIT_MS}: a
 * gateway that shortened the body and left the header stale).
 */
function readBody(req: IncomingMessage): Promise<{ text: string } | { status: number; why: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const declared = req.headers['content-length'];
    // Only a declared length can be stale; a chunked body is waited for as the SDK would.
    const timer = setTimeout(() => {
      req.pause();
      resolve({
        status: 400,
        why: `Bad request: Content-Length says ${declared} bytes, but only ${size} arrived within ${BODY_WAIT_MS} ms (a body rewritten without updating Content-Length?). Received: ${Buffer.concat(chunks).toString('utf8').slice(0, 200)}`,
      });
    }, BODY_WAIT_MS);
    timer.unref();
    if (declared === undefined) clearTimeout(timer);
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        clearTimeout(timer);
        req.pause();
        resolve({ status: 413, why: `Request body too large: more than ${MAX_BODY_BYTES} bytes.` });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      clearTimeout(timer);
      resolve({ text: Buffer.concat(chunks).toString('utf8') });
    });
    req.on('error', () => clearTimeout(timer));
  });
}

/** True when a JSON-RPC message (or batch) is a call whose progress token carries {@link NO_ACCEL_TOKEN_MARK}. */
export function asksNoAccelHeader(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => {
    const token = (m as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta?.progressToken;
    return typeof token === 'string' && token.includes(NO_ACCEL_TOKEN_MARK);
  });
}

/** Whether a request's Content-Type is JSON (otherwise the SDK answers it with 415). */
export const isJsonContent = (req: IncomingMessage): boolean =>
  (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json';

/**
 * The body of a POST, read once and bounded: its parsed JSON ({@link UNPARSEABLE} when it is not
 * JSON), or the refusal of a body too large or cut short. What the body means, and whether it is
 * refused, is the request reader's (`http/read-request.ts`) and the legacy side's (batches).
 */
export async function readPost(
  req: IncomingMessage,
): Promise<{ readonly body: unknown } | { readonly refusal: HttpRefusal; readonly cut?: boolean }> {
  const read = await readBody(req);
  // A body cut short (a stale Content-Length) leaves the connection mid-request: it is closed after the answer.
  if (!('text' in read))
    return { refusal: { status: read.status, code: -32000, message: read.why }, cut: read.status === 400 };
  try {
    return { body: JSON.parse(read.text) as unknown };
  } catch {
    return { body: UNPARSEABLE };
  }
}

/** `400` for a 2025 batch a session's version does not take (batches exist only in 2025-03-26). */
export function legacyBatchRefusal(
  req: IncomingMessage,
  body: unknown,
  sessionVersion: string | undefined,
): HttpRefusal | undefined {
  if (!Array.isArray(body)) return undefined;
  const header = req.headers['mcp-protocol-version'];
  return batchRefusal(body.length, typeof header === 'string' ? header : sessionVersion);
}
