import { GoldenError } from '../errors.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { isJsonObject } from '../transcript/json-object.js';
import { isResponse, resultOf } from '../transcript/json-rpc.js';
import { DEFAULT_PROTOCOL_VERSION, VERSION } from '../version.js';
import { clientCapabilities, offersModern, paramHeadersOf, withEnvelope } from './modern-era.js';
import type { Scenario } from './scenario.js';
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
    if (!(error instanceof GoldenError && error.code === 'E_TIMEOUT')) throw error;
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
    `Recording ${scenario.name ? `"${scenario.name}"` : `tool "${scenario.tool}"`} failed: the server sent a ${method} request and the scenario has no answer for it. Expected an "answers" entry, got none. Add "answers": {"${method}": <result>} to the scenario.`,
  );
}

/** Sends a request and reads its stream until the response (an HTTP stream is then read to its end). */
export async function requestResponse(
  session: WireSession,
  scenario: Scenario,
  message: JsonRpcMessage,
  timeoutMs: number,
): Promise<JsonRpcMessage | undefined> {
  const stream = await session.request(message);
  let response: JsonRpcMessage | undefined;
  while (!response) {
    const next = await stream.next(timeoutMs);
    if (!next) break;
    if (isResponse(next.message)) response = next.message;
    else if (isServerRequest(next.message)) await answerServerRequest(session, scenario, next.message);
  }
  if (response && session.transport === 'http') await drain(stream, 1000);
  return response;
}

/** initialize + notifications/initialized; returns the protocol version the server chose and its capabilities. */
export async function initialize(
  session: WireSession,
  scenario: Scenario,
  id: number,
  timeoutMs: number,
): Promise<{ protocolVersion: string; capabilities: unknown }> {
  const response = await requestResponse(
    session,
    scenario,
    {
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: {
        protocolVersion: scenario.protocolVersion ?? DEFAULT_PROTOCOL_VERSION,
        capabilities: clientCapabilities(scenario),
        clientInfo: { name: 'mcp-golden', version: VERSION },
      },
    },
    timeoutMs,
  );
  if (!response || !('result' in response)) {
    throw new GoldenError(
      'E_TARGET',
      `initialize failed: ${response ? JSON.stringify(response.error) : 'the stream ended without a response'}. Expected an MCP server's initialize result. Check that the target is an MCP server.`,
    );
  }
  await session.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
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
): Promise<{ readonly offered: boolean; readonly why: string }> {
  let response: JsonRpcMessage | undefined;
  try {
    response = await requestResponse(
      session,
      scenario,
      withEnvelope({ jsonrpc: '2.0', id, method: 'server/discover' }, scenario),
      timeoutMs,
    );
  } catch (error) {
    if (error instanceof GoldenError && error.code === 'E_TARGET') return { offered: false, why: error.message };
    throw error;
  }
  if (offersModern(response)) return { offered: true, why: 'server/discover offered 2026-07-28' };
  return {
    offered: false,
    why: `server/discover answered ${response ? JSON.stringify('error' in response ? response.error : resultOf(response)) : 'nothing'}`,
  };
}
