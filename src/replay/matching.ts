import { atomizeChangeset, diff } from 'json-diff-ts';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { type ReplayExchange, requestKey } from './replay-plan.js';

/** The recorded request closest to an unmatched one, with how they differ. */
export interface NearestRequest {
  readonly exchange: ReplayExchange;
  /** Readable differences, e.g. `params.arguments.steps: recorded 10, got 3`. */
  readonly differences: readonly string[];
}

function paramsOf(message: JsonRpcMessage | undefined): Record<string, unknown> {
  const { _meta: _, ...params } = (message?.params ?? {}) as Record<string, unknown>;
  return params;
}

function describeValue(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

/** Differences between two requests' methods and params (ids, tokens and `_meta` ignored). */
export function requestDifferences(recorded: JsonRpcMessage | undefined, live: JsonRpcMessage | undefined): string[] {
  const out: string[] = [];
  if (recorded?.method !== live?.method) {
    out.push(`method: recorded ${describeValue(recorded?.method)}, got ${describeValue(live?.method)}`);
  }
  const changes = atomizeChangeset(diff(paramsOf(recorded), paramsOf(live)));
  for (const change of changes) {
    const path = change.path.replace(/^\$\.?/, 'params.');
    if (change.type === 'UPDATE')
      out.push(`${path}: recorded ${describeValue(change.oldValue)}, got ${describeValue(change.value)}`);
    else if (change.type === 'ADD') out.push(`${path}: not recorded, got ${describeValue(change.value)}`);
    else out.push(`${path}: recorded ${describeValue(change.value)}, got nothing`);
  }
  return out;
}

/** Finds the recorded exchange whose key equals the live request's key. */
export function findMatch(
  exchanges: readonly ReplayExchange[],
  httpMethod: string,
  message: JsonRpcMessage | undefined,
): ReplayExchange | undefined {
  const key = requestKey(httpMethod, message);
  return exchanges.find((e) => e.key === key);
}

/** The recorded request most like `message`: same method first, then fewest differences. */
export function findNearest(
  exchanges: readonly ReplayExchange[],
  message: JsonRpcMessage | undefined,
): NearestRequest | undefined {
  let best: NearestRequest | undefined;
  for (const exchange of exchanges) {
    if (!exchange.message || !('id' in exchange.message)) continue;
    const differences = requestDifferences(exchange.message, message);
    const sameMethod = exchange.message.method === message?.method;
    const score = differences.length + (sameMethod ? 0 : 1000);
    const bestScore = best
      ? best.differences.length + (best.exchange.message?.method === message?.method ? 0 : 1000)
      : Infinity;
    if (score < bestScore) best = { exchange, differences };
  }
  return best;
}

/** One line naming a recorded request: method and params. */
export function describeRequest(message: JsonRpcMessage | undefined): string {
  if (!message) return '(no JSON-RPC message)';
  return `${String(message.method)} ${JSON.stringify(paramsOf(message))}`;
}

/** The JSON-RPC error answering a request no golden recorded: it names the closest recorded request. */
export interface UnmatchedError {
  readonly code: number;
  readonly message: string;
  readonly data: { readonly nearest: string | null; readonly differences: readonly string[] };
}

/** Builds the error for an unmatched request (method not recorded: -32601; params differ: -32602). */
export function explainUnmatched(exchanges: readonly ReplayExchange[], message: JsonRpcMessage): UnmatchedError {
  const nearest = findNearest(exchanges, message);
  const text = nearest
    ? `mcp-golden replay: no recorded request matches ${describeRequest(message)}. Closest recorded (${nearest.exchange.source} #${nearest.exchange.exchange}): ${describeRequest(nearest.exchange.message)}; differences: ${nearest.differences.join('; ')}. Record a golden for this call (npx mcp-golden record) or send the recorded request.`
    : `mcp-golden replay: no recorded request matches ${describeRequest(message)}, and the goldens hold no requests. Record a golden for this call with npx mcp-golden record.`;
  return {
    code: nearest?.exchange.message?.method === message.method ? -32602 : -32601,
    message: text,
    data: {
      nearest: nearest ? describeRequest(nearest.exchange.message) : null,
      differences: nearest?.differences ?? [],
    },
  };
}
