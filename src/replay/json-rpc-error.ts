import type { ResponseSink } from './http-exchange.js';

/** Headers of a JSON answer. */
export const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json' };

/** The text of a JSON-RPC error response (`id` null when the request had none). */
export function jsonRpcError(id: unknown, code: number, message: string, data?: unknown): string {
  return jsonRpcErrorText(JSON.stringify(id ?? null), code, message, data);
}

/** The text of a JSON-RPC error response whose id is given as JSON text (the request's own, verbatim). */
export function jsonRpcErrorText(idJson: string, code: number, message: string, data?: unknown): string {
  const error = JSON.stringify({ code, message, ...(data !== undefined && { data }) });
  return `{"jsonrpc":"2.0","id":${idJson},"error":${error}}`;
}

/** Sends one complete JSON-RPC error answer (no id). */
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
