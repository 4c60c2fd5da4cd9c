/**
 * The Streamable HTTP rules that `serve` (the SDK's transport) and the replay must apply alike, so
 * a gateway cannot pass against one and fail against the other: the same status, JSON-RPC code
 * and text for each refusal.
 */

/** Protocol versions a 2025-era server accepts in `MCP-Protocol-Version` (the SDK v1's list, newest first). */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
];

/** The only protocol version whose Streamable HTTP takes JSON-RPC batches (2025-06-18 removed them). */
export const BATCH_VERSION = '2025-03-26';

/** A request refused: the HTTP status and the JSON-RPC error it is answered with. */
export interface HttpRefusal {
  readonly status: number;
  readonly code: number;
  readonly message: string;
}

const mediaTypes = (header: string | undefined): string[] =>
  (header ?? '').split(',').map((part) => (part.split(';')[0] as string).trim().toLowerCase());

/**
 * `406` unless `Accept` lists what the spec says a client must: `application/json` and
 * `text/event-stream` on a POST, `text/event-stream` on a GET. Wildcards do not count, as they do
 * not for the SDK's servers.
 */
export function acceptRefusal(httpMethod: string, accept: string | undefined): HttpRefusal | undefined {
  // A client sends the same Accept with every request: the last one's verdict is kept.
  if (lastAccept !== undefined && lastAccept.httpMethod === httpMethod && lastAccept.accept === accept) {
    return lastAccept.refusal;
  }
  const refusal = judgeAccept(httpMethod, accept);
  lastAccept = { httpMethod, accept, refusal };
  return refusal;
}

/** The last `Accept` judged, and the verdict. */
let lastAccept:
  | { readonly httpMethod: string; readonly accept: string | undefined; readonly refusal: HttpRefusal | undefined }
  | undefined;

function judgeAccept(httpMethod: string, accept: string | undefined): HttpRefusal | undefined {
  const types = mediaTypes(accept);
  if (httpMethod === 'GET' && !types.includes('text/event-stream')) {
    return { status: 406, code: -32000, message: 'Not Acceptable: a GET stream needs Accept: text/event-stream.' };
  }
  if (httpMethod === 'POST' && !(types.includes('application/json') && types.includes('text/event-stream'))) {
    return {
      status: 406,
      code: -32000,
      message: `Not Acceptable: expected Accept to list both application/json and text/event-stream, got ${JSON.stringify((accept ?? '').slice(0, 100))}.`,
    };
  }
  return undefined;
}

/** `400` for an `MCP-Protocol-Version` header naming a version the server does not support (none sent: fine). */
export function protocolVersionRefusal(
  header: string | undefined,
  supported: readonly string[] = MCP_PROTOCOL_VERSIONS,
): HttpRefusal | undefined {
  if (header === undefined || supported.includes(header)) return undefined;
  return {
    status: 400,
    code: -32000,
    message: `Bad Request: Unsupported protocol version: ${header.slice(0, 100)} (supported versions: ${supported.join(', ')})`,
  };
}

/** `400` for a JSON-RPC batch, unless it is non-empty and the version in use is 2025-03-26. */
export function batchRefusal(length: number, version: string | undefined): HttpRefusal | undefined {
  if (length === 0) return { status: 400, code: -32600, message: 'Invalid Request: an empty JSON-RPC batch.' };
  if (version === BATCH_VERSION) return undefined;
  return {
    status: 400,
    code: -32600,
    message: `Invalid Request: JSON-RPC batches are not supported in protocol version ${version ?? 'none negotiated'} (batches exist only in ${BATCH_VERSION}). Send one message per POST.`,
  };
}
