import { GoldenError } from '../errors.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { DEFAULT_PROTOCOL_VERSION, VERSION } from '../version.js';
import type { Scenario } from './scenario.js';
import type { CallStream, WireSession } from './wire-session.js';

/** What the client saw of one scenario, counted on the wire. */
export interface ScenarioOutcome {
  /** Progress notifications received for the call, in order. */
  readonly progress: readonly JsonRpcMessage[];
  /** The call's response (result or error), if one arrived. */
  readonly response?: JsonRpcMessage;
  /** Messages for the call that arrived after the cancellation was sent. */
  readonly afterCancel: readonly JsonRpcMessage[];
  readonly cancelled: boolean;
  readonly resumed: boolean;
  /** Protocol version the server answered in `initialize`. */
  readonly protocolVersion: string;
}

const isResponse = (message: JsonRpcMessage): boolean => !('method' in message) && 'id' in message;
const isProgress = (message: JsonRpcMessage): boolean => message.method === 'notifications/progress';

/** Reads a stream to its end, or drops it if it stays open past `ms` (a resumed stream may). */
async function drain(stream: CallStream, ms: number): Promise<JsonRpcMessage[]> {
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
export function handshakeIds(callId: string | number): { initialize: number; toolsList: number } {
  const free = [0, 1, 2].filter((id) => id !== callId);
  return { initialize: free[0] as number, toolsList: free[1] as number };
}

/** Sends a request and reads its stream until the response (an HTTP stream is then read to its end). */
async function requestResponse(
  session: WireSession,
  message: JsonRpcMessage,
  timeoutMs: number,
): Promise<JsonRpcMessage | undefined> {
  const stream = await session.request(message);
  let response: JsonRpcMessage | undefined;
  while (!response) {
    const next = await stream.next(timeoutMs);
    if (!next) break;
    if (isResponse(next.message)) response = next.message;
  }
  if (response && session.transport === 'http') await drain(stream, 1000);
  return response;
}

async function initialize(session: WireSession, scenario: Scenario, id: number, timeoutMs: number): Promise<string> {
  const response = await requestResponse(
    session,
    {
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: {
        protocolVersion: scenario.protocolVersion ?? DEFAULT_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'mcp-golden', version: VERSION },
      },
    },
    timeoutMs,
  );
  if (!response || !('result' in response)) {
    throw new GoldenError(
      'E_TARGET',
      `initialize failed: ${response ? JSON.stringify(response.error) : 'the stream ended without a response'}. Check that the target is an MCP server.`,
    );
  }
  await session.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const result = response.result as { protocolVersion?: unknown };
  return typeof result.protocolVersion === 'string' ? result.protocolVersion : 'unknown';
}

/** Lists the server's tools, as a real client does before calling one. */
async function listTools(session: WireSession, id: number, timeoutMs: number): Promise<JsonRpcMessage | undefined> {
  return requestResponse(session, { jsonrpc: '2.0', id, method: 'tools/list' }, timeoutMs);
}

/**
 * Drives one scenario over a wire session as a real client would: initialize, initialized,
 * `tools/list`, then call the tool with the scenario's token
 * and request id, cancel or drop-and-resume after progress k, and close. Progress is counted on
 * the wire, message by message.
 */
export async function runScenario(session: WireSession, scenario: Scenario): Promise<ScenarioOutcome> {
  const timeoutMs = scenario.timeoutMs ?? 30_000;
  const requestId = scenario.requestId ?? 1;
  const ids = handshakeIds(requestId);
  const protocolVersion = await initialize(session, scenario, ids.initialize, timeoutMs);
  await listTools(session, ids.toolsList, timeoutMs);
  const params: Record<string, unknown> = { name: scenario.tool, arguments: scenario.arguments ?? {} };
  if (scenario.progressToken !== undefined) params._meta = { progressToken: scenario.progressToken };
  let stream = await session.request({ jsonrpc: '2.0', id: requestId, method: 'tools/call', params });

  const progress: JsonRpcMessage[] = [];
  const afterCancel: JsonRpcMessage[] = [];
  let response: JsonRpcMessage | undefined;
  let cancelled = false;
  let resumed = false;
  while (!response) {
    const next = await stream.next(timeoutMs);
    if (!next) break;
    const { message } = next;
    if (isResponse(message)) response = message;
    else if (isProgress(message)) progress.push(message);
    if (progress.length === scenario.cancelAfter && !cancelled) {
      cancelled = true;
      await session.notify({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId, reason: `mcp-golden: cancel after progress ${scenario.cancelAfter}` },
      });
      // Anything the server sends for the call from now on is a bug; wait a while to catch it.
      const stepMs = Number(scenario.arguments?.step_ms ?? 200);
      afterCancel.push(...(await drain(stream, Math.min(2000, Math.max(300, 3 * stepMs)))));
      break;
    }
    if (progress.length === scenario.dropAfter && !resumed && isProgress(message)) {
      resumed = true;
      const lastEventId = stream.lastEventId;
      await stream.drop();
      if (lastEventId === undefined) {
        throw new GoldenError(
          'E_TARGET',
          'Cannot resume: the stream carried no SSE event ids. The target needs an event store for Last-Event-ID.',
        );
      }
      // Wait as long as the server's `retry:` asks before reconnecting, as the spec tells clients to.
      await new Promise((resolve) => setTimeout(resolve, Math.min(stream.retryMs ?? 1000, 5000)));
      stream = await session.resume(lastEventId);
    }
  }
  if (response && !cancelled && session.transport === 'http') await drain(stream, 1000);
  await session.close();
  return {
    progress,
    ...(response && { response }),
    afterCancel,
    cancelled,
    resumed,
    protocolVersion,
  };
}
