import { atomizeChangeset, diff } from 'json-diff-ts';
import { GoldenError } from '../errors.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { paramsOf, paramsWithoutMeta, requestProgressToken, resultOf } from '../transcript/json-rpc.js';
import { argumentsReadAlike, hasProgressToken, paramsAsRead, type ReplayExchange, requestKey } from './replay-plan.js';

/** The recorded request closest to an unmatched one, with how they differ. */
export interface NearestRequest {
  readonly exchange: ReplayExchange;
  /** Readable differences, e.g. `params.arguments.steps: recorded 10, got 3`. */
  readonly differences: readonly string[];
}

/** Longest description of a value or request put in an error: the text never echoes a whole body. */
const DESCRIBE_LIMIT = 200;

function clip(text: string): string {
  return text.length > DESCRIBE_LIMIT ? `${text.slice(0, DESCRIBE_LIMIT)}… (${text.length} characters)` : text;
}

function describeValue(value: unknown): string {
  return value === undefined ? 'nothing' : clip(JSON.stringify(value));
}

const tokenOf = (message: JsonRpcMessage | undefined): unknown => message && requestProgressToken(message).token;

/** Differences between two requests' methods and params (ids, tokens and `_meta` ignored). */
export function requestDifferences(recorded: JsonRpcMessage | undefined, live: JsonRpcMessage | undefined): string[] {
  const out: string[] = [];
  if (recorded?.method !== live?.method) {
    out.push(`method: recorded ${describeValue(recorded?.method)}, got ${describeValue(live?.method)}`);
  }
  if (hasProgressToken(recorded) !== hasProgressToken(live)) {
    out.push(
      hasProgressToken(live)
        ? `params._meta.progressToken: not recorded, got ${describeValue(tokenOf(live))} (the golden has no progress notifications to send)`
        : `params._meta.progressToken: recorded ${describeValue(tokenOf(recorded))}, got nothing`,
    );
  }
  const changes = atomizeChangeset(diff(paramsAsRead(recorded), paramsAsRead(live)));
  for (const change of changes) {
    const path = change.path.replace(/^\$\.?/, 'params.');
    if (change.type === 'UPDATE')
      out.push(`${path}: recorded ${describeValue(change.oldValue)}, got ${describeValue(change.value)}`);
    else if (change.type === 'ADD') {
      // Matching reads an empty `arguments` as none: say what the golden holds, not "not recorded".
      const held = recordedAt(recorded, path);
      out.push(
        `${path}: ${held === undefined ? 'not recorded' : `recorded ${describeValue(held)}`}, got ${describeValue(change.value)}`,
      );
    } else out.push(`${path}: recorded ${describeValue(change.value)}, got nothing`);
  }
  return out;
}

/** The recorded request's own value at a dotted `params.` path (before matching's reading), if any. */
function recordedAt(recorded: JsonRpcMessage | undefined, path: string): unknown {
  let value: unknown = paramsWithoutMeta(recorded);
  for (const key of path.split('.').slice(1)) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** What a request is about within its method: a tool's or prompt's `name`, a resource's `uri`. */
const subjectOf = (message: JsonRpcMessage | undefined): unknown => {
  const params = paramsWithoutMeta(message);
  return params.name ?? params.uri;
};

const requestedVersion = (message: JsonRpcMessage): unknown => paramsOf(message).protocolVersion;

/**
 * What matching reads of a recorded exchange's answer, found once per exchange: matching runs for
 * every request, and re-reading a long answer's frames each time cost every session a scan of them.
 */
interface AnswerFacts {
  /** Whether the recording holds the answer (not cut short by a cancellation). */
  readonly answered: boolean;
  /** The protocol version an `initialize` answer names. */
  readonly version: unknown;
}

const answerFacts = new WeakMap<ReplayExchange, AnswerFacts>();

function factsOf(exchange: ReplayExchange): AnswerFacts {
  let facts = answerFacts.get(exchange);
  if (!facts) {
    facts = {
      answered: exchange.events.some((v) => v.message && 'id' in v.message && !('method' in v.message)),
      version: resultOf(exchange.events.find((e) => e.message && 'result' in e.message)?.message)?.protocolVersion,
    };
    answerFacts.set(exchange, facts);
  }
  return facts;
}

const answeredVersion = (exchange: ReplayExchange): unknown => factsOf(exchange).version;

/**
 * How strictly a live request must match a recorded one:
 * - `'ignore-token'`: a request that differs from a recording only in carrying a progress token is
 *   answered from it, with no progress (none was recorded), as the live server answers a call
 *   whatever its `_meta`; the SDK client sends a token whenever `onprogress` is set;
 * - `'strict'`: a request with a progress token is only answered from a recording made with one.
 * Either way a request without a token prefers a recording without one, else gets a recording's
 * answer with its progress left out, and everything but ids, token values and `_meta` must match.
 */
export type MatchMode = 'ignore-token' | 'strict';

/** The match modes, the default first. */
export const MATCH_MODES: readonly MatchMode[] = ['ignore-token', 'strict'];

/** Checks a match mode given to the API (`E_USAGE` naming the values). */
export function checkMatchMode(value: unknown): MatchMode {
  if (value === undefined) return 'ignore-token';
  if (MATCH_MODES.includes(value as MatchMode)) return value as MatchMode;
  throw new GoldenError(
    'E_USAGE',
    `Invalid replay option match: expected ${MATCH_MODES.map((m) => `'${m}'`).join(' or ')}, got ${JSON.stringify(value)}. Leave it out for 'ignore-token'.`,
  );
}

/** What the report says of a match that was not exact: the progress token ignored, an empty optional `arguments` read as none. */
export function matchRemark(exchange: ReplayExchange | undefined, message: JsonRpcMessage): string | undefined {
  const token = tokenRemark(exchange, message);
  if (!exchange || !argumentsReadAlike(exchange.message, message)) return token;
  const args =
    'arguments' in paramsWithoutMeta(exchange.message)
      ? 'matched a recording made with empty arguments; the request has none, as a live server reads alike'
      : 'matched a recording made without arguments; the request has empty arguments ({}), as a live server reads alike';
  return token === undefined ? args : `${token}; ${args}`;
}

/** The report's remark on a request answered from a recording that differs in having a progress token. */
export function tokenRemark(exchange: ReplayExchange | undefined, message: JsonRpcMessage): string | undefined {
  if (!exchange || message.method === 'initialize' || exchange.hasToken === hasProgressToken(message)) return undefined;
  return exchange.hasToken
    ? 'matched a recording made with a progress token; the request has none, so no progress was sent'
    : 'matched a recording made without a progress token (match: ignore-token); no progress was recorded, so none was sent';
}

/**
 * The recorded exchange that answers a live message, knowing MCP:
 * - `initialize` is answered with the client's protocol version when a golden recorded it, else
 *   with the newest version the goldens hold;
 * - a request with a progress token prefers a recording made with one; under `match: 'strict'` it
 *   only matches one (a recording without has no notifications to send); a request without one
 *   prefers a recording without one, and otherwise gets a token recording with its progress left
 *   out, as the live server would send;
 * - among equals, a recording that holds the answer wins over one cut short by a cancellation,
 *   then a golden recorded over the same transport, so its bytes replay unchanged.
 */
export function chooseExchange(
  exchanges: readonly ReplayExchange[],
  httpMethod: string,
  message: JsonRpcMessage,
  transport: 'http' | 'stdio',
  match: MatchMode = 'ignore-token',
): ReplayExchange | undefined {
  const group = groupOf(exchanges, requestKey(httpMethod, message));
  if (group === undefined) return undefined;
  if (message.method === 'initialize') {
    const wanted = requestedVersion(message);
    // Any version a client names is one of a few strings; anything else is chosen afresh.
    if (typeof wanted !== 'string') return choose(group.exchanges, message, transport, match);
    const side = transport === 'http' ? 0 : 1;
    group.byVersion[side] ??= new Map();
    const versions = group.byVersion[side];
    let chosen = versions.get(wanted);
    if (chosen === undefined && !versions.has(wanted)) {
      chosen = choose(group.exchanges, message, transport, match);
      // Bounded: a flood of made-up versions must not grow the replay.
      if (versions.size < CHOICE_LIMIT) versions.set(wanted, chosen);
    }
    return chosen;
  }
  // What else decides the choice: the transport, the match mode and whether the request has a token.
  const variant = (transport === 'http' ? 0 : 4) + (match === 'strict' ? 2 : 0) + (hasProgressToken(message) ? 1 : 0);
  const known = group.chosen[variant];
  if (known !== undefined) return known ?? undefined;
  const chosen = choose(group.exchanges, message, transport, match);
  group.chosen[variant] = chosen ?? null;
  return chosen;
}

/** Most `initialize` versions whose choice is kept per request key. */
const CHOICE_LIMIT = 64;

/**
 * The recorded exchanges of one request key, in plan order, and the choices among them made so far:
 * a choice depends only on the key and a few facts of the request, and every session of a load test
 * asks the same ones, so each is made once rather than by filtering the plan at every request.
 */
interface KeyGroup {
  readonly exchanges: readonly ReplayExchange[];
  /** By variant (transport, match mode, token: see {@link chooseExchange}); `null`: none answers. */
  readonly chosen: (ReplayExchange | null | undefined)[];
  /** An `initialize`'s choice by the version it asks for, per transport (HTTP, stdio). */
  readonly byVersion: (Map<string, ReplayExchange | undefined> | undefined)[];
}

const groups = new WeakMap<readonly ReplayExchange[], Map<string, KeyGroup>>();

/** The group of `key` in a list of exchanges (a plan's, never changed once built), grouped once per list. */
function groupOf(exchanges: readonly ReplayExchange[], key: string): KeyGroup | undefined {
  let byKey = groups.get(exchanges);
  if (!byKey) {
    const lists = new Map<string, ReplayExchange[]>();
    for (const exchange of exchanges) {
      const list = lists.get(exchange.key);
      if (list) list.push(exchange);
      else lists.set(exchange.key, [exchange]);
    }
    byKey = new Map();
    for (const [k, list] of lists) byKey.set(k, { exchanges: list, chosen: [], byVersion: [] });
    groups.set(exchanges, byKey);
  }
  return byKey.get(key);
}

/** The choice among the recordings of one request key (see {@link chooseExchange}). */
function choose(
  candidates: readonly ReplayExchange[],
  message: JsonRpcMessage,
  transport: 'http' | 'stdio',
  match: MatchMode,
): ReplayExchange | undefined {
  // A recording that ends with the answer beats one cut short (a cancelled call), then the transport.
  const sameTransport = (list: readonly ReplayExchange[]): ReplayExchange | undefined => {
    const answered = list.filter((e) => factsOf(e).answered);
    const pool = answered.length > 0 ? answered : list;
    return pool.find((e) => e.transport === transport) ?? pool[0];
  };
  if (message.method === 'initialize') {
    const wanted = requestedVersion(message);
    const exact = candidates.filter((e) => answeredVersion(e) === wanted);
    if (exact.length > 0) return sameTransport(exact);
    const newest = [...candidates].sort((a, b) => String(answeredVersion(b)).localeCompare(String(answeredVersion(a))));
    return sameTransport(newest.filter((e) => answeredVersion(e) === answeredVersion(newest[0] as ReplayExchange)));
  }
  const live = hasProgressToken(message);
  const same = candidates.filter((e) => e.hasToken === live);
  if (same.length > 0) return sameTransport(same);
  return live && match === 'strict' ? undefined : sameTransport(candidates);
}

/**
 * The recorded request most like `message`: same method first, then the same tool, prompt or resource
 * (a `progress` call with other arguments is nearer than a `chatty` call), then fewest differences.
 */
export function findNearest(
  exchanges: readonly ReplayExchange[],
  message: JsonRpcMessage | undefined,
): NearestRequest | undefined {
  let best: { nearest: NearestRequest; score: number } | undefined;
  for (const exchange of exchanges) {
    if (!exchange.message || !('id' in exchange.message)) continue;
    const differences = requestDifferences(exchange.message, message);
    const score =
      differences.length +
      (exchange.message.method === message?.method ? 0 : 1000) +
      (subjectOf(exchange.message) === subjectOf(message) ? 0 : 100);
    if (best === undefined || score < best.score) best = { nearest: { exchange, differences }, score };
  }
  return best?.nearest;
}

/** One line naming a recorded request: method and params. */
export function describeRequest(message: JsonRpcMessage | undefined): string {
  if (!message) return '(no JSON-RPC message)';
  return `${clip(String(message.method))} ${clip(JSON.stringify(paramsWithoutMeta(message)))}`;
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
