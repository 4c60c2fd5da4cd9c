/** Headers of a JSON answer. */
export const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json' };

/** The text of a JSON-RPC error response (`id` null when the request had none). */
export function jsonRpcError(id: unknown, code: number, message: string, data?: unknown): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: id ?? null,
    error: { code, message, ...(data !== undefined && { data }) },
  });
}
