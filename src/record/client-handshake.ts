import { GoldenError, isGoldenError } from '../errors.js';
import { MODERN_PROTOCOL_VERSION } from '../transcript/frame.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { isJsonObject } from '../transcript/json-object.js';
import { INITIALIZED, isResponse, legacyInitialize, resultOf } from '../transcript/json-rpc.js';
import { ENVELOPE_KEYS } from '../transcript/modern-envelope.js';
import { DEFAULT_PROTOCOL_VERSION, RECORDER, VERSION } from '../version.js';
import { isAddressFailure } from './connection-error.js';
import { clientCapabilities, offersModern, paramHeadersOf, withEnvelope } from './modern-era.js';
import { describeScenario, type Scenario } from './scenario.js';
import type { CallStream, WireSession } from './wire-session.js';

/** True for a request the server sends to the client (sampling, elicitation, roots, ping). */
export const isServerRequest = (message: JsonRpcMessage): boolean => 'method' in message && 'id' in message;

/** Reads a stream to its end, or drops it if it stays open past `ms` (a resumed stream may). */
export async function drain(stream: CallStream, ms: number): Promise<JsonRpcMessage[]> {
  const extra: JsonRpcMessage[] = [];
  const deadline = Date.now() + ms;
  try {
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      const next = await stream.next(left);
      if (!next) return extra;
      extra.push(next.message);
    }
  } catch (error) {
    if (!isGoldenError(error, 'E_TIMEOUT')) throw error;
  }
  await stream.drop();
  return extra;
}

/**
 * Ids for the handshake requests that cannot collide with the call's id: the lowest whole numbers
 * other than `callId`. Everything on the wire lands in the golden, so a collision would make the
 * replayer (and any reader) mix up two exchanges.
 */
export function handshakeIds(callIds: string | number | readonly (string | number)[]): {
  initialize: number;
  toolsList: number;
  lists: readonly number[];
} {
  const taken = new Set(Array.isArray(callIds) ? callIds : [callIds]);
  const free = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].filter((id) => !taken.has(id));
  return { initialize: free[0] as number, toolsList: free[1] as number, lists: free.slice(2, 5) };
}

/**
 * Answers a request the server sent the client from the scenario's `answers` (`ping` needs none).
 * A request the scenario has no answer for gets a JSON-RPC error, so the server is not left
 * waiting, and then fails the recording with the fix.
 */
export async function answerServerRequest(
  session: WireSession,
  scenario: Scenario,
  request: JsonRpcMessage,
): Promise<void> {
  const method = String(request.method);
  const answer = method === 'ping' ? {} : scenario.answers?.[method];
  if (answer !== undefined) {
    await session.notify({ jsonrpc: '2.0', id: request.id, result: answer });
    return;
  }
  await session.notify({
    jsonrpc: '2.0',
    id: request.id,
    error: { code: -32601, message: `mcp-golden: the scenario has no answer for ${method}` },
  });
  throw new GoldenError(
    'E_RECORD',
    `Recording ${describeScenario(scenario)} failed: the server sent a ${method} request and the scenario has no answer for it. Expected an "answers" entry, got none. Add "answers": {"${method}": <result>} to the scenario.`,
  );
}

/** How a handshake request is read: whether the server's requests are answered, how long the stream is read on. */
interface ReadOptions {
  /** Answer the server's requests from the scenario's `answers` (else they are left unanswered). @default true */
  readonly answerServer?: boolean;
  /** How long an HTTP stream is read past its response, so its end is recorded; 0 drops it. @default 1000 */
  readonly settleMs?: number;
}

/** Sends a request and reads its stream until the response (an HTTP stream is then read to its end). */
export async function requestResponse(
  session: WireSession,
  scenario: Scenario,
  message: JsonRpcMessage,
  timeoutMs: number,
  options: ReadOptions = {},
): Promise<JsonRpcMessage | undefined> {
  const stream = await session.request(message);
  let response: JsonRpcMessage | undefined;
  while (!response) {
    const next = await stream.next(timeoutMs);
    if (!next) break;
    if (isResponse(next.message)) response = next.message;
    else if (isServerRequest(next.message) && options.answerServer !== false) {
      await answerServerRequest(session, scenario, next.message);
    }
  }
  if (response && session.transport === 'http') await drain(stream, options.settleMs ?? 1000);
  return response;
}

/** The legacy era's `initialize` request the client sends (the recorder's client info unless given). */
const initializeRequest = (
  id: string | number,
  protocolVersion: string,
  capabilities: Readonly<Record<string, object>> = {},
  clientInfo: Readonly<Record<string, string>> = { name: 'mcp-golden', version: VERSION },
): JsonRpcMessage => legacyInitialize(id, protocolVersion, capabilities, clientInfo);

/** How the legacy handshake is sent and read. */
interface InitializeOptions extends ReadOptions {
  /** The error message for a failed initialize, from what the server answered. */
  readonly failure?: (detail: string) => string;
}

/** initialize + notifications/initialized; returns the protocol version the server chose and its capabilities. */
export async function initialize(
  session: WireSession,
  scenario: Scenario,
  id: string | number,
  timeoutMs: number,
  options: InitializeOptions = {},
): Promise<{ protocolVersion: string; capabilities: unknown }> {
  const response = await requestResponse(
    session,
    scenario,
    initializeRequest(id, scenario.protocolVersion ?? DEFAULT_PROTOCOL_VERSION, clientCapabilities(scenario)),
    timeoutMs,
    options,
  );
  if (!response || !('result' in response)) {
    const detail = response ? JSON.stringify(response.error) : 'the stream ended without a response';
    throw new GoldenError(
      'E_TARGET',
      options.failure?.(detail) ??
        `initialize failed: ${detail}. Expected an MCP server's initialize result. Check that the target is an MCP server.`,
    );
  }
  await session.notify(INITIALIZED);
  const result = resultOf(response);
  const version = result?.protocolVersion;
  return { protocolVersion: typeof version === 'string' ? version : 'unknown', capabilities: result?.capabilities };
}

/**
 * Lists the server's tools, as a real client does before calling one, and refuses a scenario whose
 * tool the server does not have (unless the scenario expects an error): recording the error would
 * write a golden nobody wanted.
 */
export async function listTools(
  session: WireSession,
  scenario: Scenario,
  id: number,
  timeoutMs: number,
  modern = false,
): Promise<Record<string, string>> {
  const list: JsonRpcMessage = { jsonrpc: '2.0', id, method: 'tools/list' };
  const response = await requestResponse(session, scenario, modern ? withEnvelope(list, scenario) : list, timeoutMs);
  if (!response || !('result' in response)) return {};
  const result = resultOf(response);
  const tools = Array.isArray(result?.tools) ? result.tools : [];
  const names = tools.map((tool: unknown) => String(isJsonObject(tool) ? tool.name : undefined));
  const tool = tools.find((t: unknown) => isJsonObject(t) && t.name === scenario.tool);
  // A paged list may hold the tool on a later page: only a complete list proves it missing.
  if (scenario.expectError || tool !== undefined || result?.nextCursor !== undefined) return paramHeadersOf(tool);
  throw new GoldenError(
    'E_UNKNOWN_TOOL',
    `Cannot record ${scenario.name ? `"${scenario.name}"` : 'the call'}: the server has no tool "${scenario.tool}". Expected one of: ${names.join(', ') || '(no tools)'}. Fix the scenario's "tool", or add "expectError": true to record the server's error on purpose.`,
  );
}

/** What `server/discover` told: whether it offered 2026-07-28, and why not. */
export interface DiscoverOutcome {
  readonly offered: boolean;
  readonly why: string;
  /** The target was not reached or refused the request as not found or not allowed: not a question of era. */
  readonly addressFailure?: boolean;
}

/**
 * The modern era's handshake: `server/discover` with the per-request envelope. Resolves with the
 * answer when it offers 2026-07-28, `undefined` when it does not (or the server refuses the
 * request: a legacy server answers HTTP 400 or an error), which is what `auto` falls back on.
 */
export async function discover(
  session: WireSession,
  scenario: Scenario,
  id: number,
  timeoutMs: number,
): Promise<DiscoverOutcome> {
  let response: JsonRpcMessage | undefined;
  try {
    response = await requestResponse(
      session,
      scenario,
      withEnvelope({ jsonrpc: '2.0', id, method: 'server/discover' }, scenario),
      timeoutMs,
    );
  } catch (error) {
    // `why` is quoted inside other sentences: without its closing period ("Expected HTTP 200.. Expected").
    if (error instanceof GoldenError && error.code === 'E_TARGET')
      return { offered: false, why: error.message.replace(/\.+$/, ''), addressFailure: isAddressFailure(error) };
    throw error;
  }
  if (offersModern(response)) return { offered: true, why: 'server/discover offered 2026-07-28' };
  return {
    offered: false,
    why: `server/discover answered ${response ? JSON.stringify('error' in response ? response.error : resultOf(response)) : 'nothing'}`,
  };
}

/** The client's own `initialize` a pass-through sends upstream, if it sent one (parsed). */
function clientsInitialize(clientInitialize: string | undefined): JsonRpcMessage | undefined {
  try {
    const own = JSON.parse(clientInitialize ?? '') as unknown;
    return isJsonObject(own) ? (own as JsonRpcMessage) : undefined;
  } catch {
    return undefined;
  }
}

/** The recorder's `initialize` a pass-through sends upstream when its client sent none. */
const passthroughInitialize = (id: string | number): JsonRpcMessage =>
  initializeRequest(id, DEFAULT_PROTOCOL_VERSION, {}, { name: RECORDER, version: '1' });

/**
 * The legacy handshake a pass-through sends to the live server over HTTP on its client's behalf:
 * the client's own `initialize` (the recorder's when it sent none), then `notifications/initialized`
 * under the session the server gave. `post` sends one body with extra headers.
 */
export async function passthroughHandshake(
  post: (body: string, headers: Record<string, string>) => Promise<Response>,
  clientInitialize: string | undefined,
): Promise<{ readonly id: string | undefined; readonly protocolVersion: string }> {
  const body = clientInitialize ?? JSON.stringify(passthroughInitialize(0));
  const response = await post(body, {});
  const text = await response.text();
  if (!response.ok) throw new Error(`its initialize answered HTTP ${response.status}: ${text.slice(0, 200)}`);
  const id = response.headers.get('mcp-session-id') ?? undefined;
  const protocolVersion = /"protocolVersion"\s*:\s*"([^"]+)"/.exec(text)?.[1] ?? DEFAULT_PROTOCOL_VERSION;
  const session = { ...(id !== undefined && { 'mcp-session-id': id }), 'mcp-protocol-version': protocolVersion };
  await (await post(JSON.stringify(INITIALIZED), session)).text();
  return { id, protocolVersion };
}

/**
 * The legacy handshake a pass-through sends to a live stdio server: `start` writes the client's own
 * `initialize` (the recorder's when it sent none) under `id`, kept apart from the client's ids;
 * `finish` writes `notifications/initialized` once the server answered it.
 */
export const stdioPassthroughHandshake = {
  start(write: (line: string) => void, clientInitialize: string | undefined, id: string): void {
    // The client's keeps its fields' order; the recorder's own has its id last, as it always had.
    const { id: _none, ...recorders } = passthroughInitialize(id);
    write(`${JSON.stringify({ ...(clientsInitialize(clientInitialize) ?? recorders), id })}\n`);
  },
  finish(write: (line: string) => void): void {
    write(`${JSON.stringify(INITIALIZED)}\n`);
  },
};

/**
 * The pass-through's probe of a live target for 2026-07-28 clients: one `server/discover` with the
 * per-request envelope (no capabilities: it only asks which revisions the target speaks), and the
 * judgement of its answer, `undefined` when it offers 2026-07-28, else what the target said instead.
 */
export const passthroughDiscover = {
  request: (id: string): JsonRpcMessage => ({
    jsonrpc: '2.0',
    id,
    method: 'server/discover',
    params: {
      _meta: {
        [ENVELOPE_KEYS.protocolVersion]: MODERN_PROTOCOL_VERSION,
        [ENVELOPE_KEYS.clientInfo]: { name: RECORDER, version: '1' },
        [ENVELOPE_KEYS.clientCapabilities]: {},
      },
    },
  }),
  refusal: (answer: JsonRpcMessage | undefined, said: string): string | undefined =>
    offersModern(answer) ? undefined : `its server/discover answered ${said}`,
  /** The outcome the replay report gives a request refused for that. */
  refusedOutcome: `refused: the target does not speak ${MODERN_PROTOCOL_VERSION}`,
  /** The error a refused request gets: the target `label`, `why` it is not modern, the `flag` that names the target. */
  refusedMessage: (label: string, why: string, flag: '--target' | '--target-stdio'): string =>
    `[mcp-golden] --unmatched passthrough cannot pass this ${MODERN_PROTOCOL_VERSION} request to ${label}: the live server does not speak ${MODERN_PROTOCOL_VERSION} (${why}). ${flag === '--target' ? 'Point --target at' : 'Give --target-stdio'} a server that speaks ${MODERN_PROTOCOL_VERSION}, or make the calls to record with a 2025-11-25 client.`,
};
