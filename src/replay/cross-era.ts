import { basename } from 'node:path';
import { type Era, eraOf, type Frame, MODERN_PROTOCOL_VERSION, type Transcript } from '../transcript/frame.js';
import { frameMessage, type JsonRpcMessage } from '../transcript/frame-content.js';
import { isJsonObject } from '../transcript/json-object.js';
import { legacyInitialize } from '../transcript/json-rpc.js';
import type { GoldenInput } from './replay-plan.js';

/** The 2025 revision a crossed modern golden answers `initialize` with. */
export const LEGACY_PROTOCOL_VERSION = '2025-11-25';

/** What a crossed golden's source name says, so the replay report names every answer that crossed eras. */
export const CROSSED_MARK = 'answered across eras';

const transcriptOf = (input: GoldenInput): Transcript => ('file' in input ? input.golden : input);

/**
 * The goldens of one era re-framed for the clients of the other, where a call means the same in
 * both: a 2025 golden's lists and tool calls for a 2026-07-28 client (no `initialize`, no session,
 * no SSE ids or priming events, every result with `resultType: "complete"`, a `server/discover`
 * made from the `initialize` answer), and a 2026-07-28 golden's for a 2025 client (an
 * `initialize` made from the `server/discover` answer, results without `resultType`, `ttlMs` or
 * `cacheScope`). Calls that do not cross are left out: `input_required` and task rounds, streams
 * that carry a server request (2026-07-28 has none), GET and DELETE. Each crossed golden's source
 * says `(<version> golden, answered across eras)`; the replay lists them after its own goldens, so of two
 * that fit a request equally, the client's own era answers. `handshake: false` leaves the made-up handshake
 * out (when goldens of the era `to` answer it themselves, so one replay stays one server).
 */
export function crossGoldens(goldens: readonly GoldenInput[], to: Era, handshake = true): GoldenInput[] {
  return goldens.flatMap((input, index) => {
    const golden = transcriptOf(input);
    if (eraOf(golden.header) === to) return [];
    const crossed = crossGolden(golden, to, handshake);
    if (!crossed) return [];
    const name = 'file' in input ? basename(input.file) : (golden.header.scenario ?? `golden #${index + 1}`);
    return [{ file: `${name} (${golden.header.protocolVersion} golden, ${CROSSED_MARK})`, golden: crossed }];
  });
}

/** The client request of each exchange. */
function requestsOf(frames: readonly Frame[]): Map<number, JsonRpcMessage> {
  const out = new Map<number, JsonRpcMessage>();
  for (const frame of frames) {
    if (frame.dir !== 'client->server' || out.has(frame.exchange)) continue;
    const message = frameMessage(frame);
    if (message) out.set(frame.exchange, message);
  }
  return out;
}

/** `golden` for the clients of era `to`, or `undefined` when nothing in it crosses. */
export function crossGolden(golden: Transcript, to: Era, withHandshake = true): Transcript | undefined {
  const requests = requestsOf(golden.frames);
  const handshake = to === 'modern' ? 'initialize' : 'server/discover';
  const drop = new Set<number>();
  let handshakeAnswer: Record<string, unknown> | undefined;
  const heads = new Map<number, Frame>();
  for (const frame of golden.frames) {
    if (frame.channel === 'http' && frame.dir === 'client->server') heads.set(frame.exchange, frame);
  }
  for (const [exchange, request] of requests) {
    if (typeof request.method !== 'string' || !('id' in request) || request.method === handshake) drop.add(exchange);
  }
  for (const [exchange, head] of heads) if (head.method !== undefined && head.method !== 'POST') drop.add(exchange);
  for (const frame of golden.frames) {
    if (frame.dir !== 'server->client') continue;
    const message = frameMessage(frame);
    if (!message) continue;
    const request = requests.get(frame.exchange);
    if (request?.method === handshake && isJsonObject(message.result)) handshakeAnswer = message.result;
    // A server request (elicitation, sampling) has no place in 2026-07-28; a round or a task has none in 2025.
    if (typeof message.method === 'string' && 'id' in message) drop.add(frame.exchange);
    const kind = isJsonObject(message.result) ? message.result.resultType : undefined;
    if (kind !== undefined && kind !== 'complete') drop.add(frame.exchange);
  }
  const frames: Frame[] = [];
  for (const frame of golden.frames) {
    if (drop.has(frame.exchange) || (golden.header.transport === 'stdio' && frame.exchange === 0)) continue;
    const out = crossFrame(frame, to, requests.get(frame.exchange)?.method);
    if (out) frames.push(out);
  }
  if (!frames.some((f) => f.dir === 'client->server' && frameMessage(f) !== undefined)) return undefined;
  const first = golden.frames[0]?.t ?? 0;
  const next = golden.frames.reduce((most, f) => Math.max(most, f.exchange), 0) + 1;
  const made =
    withHandshake && handshakeAnswer ? handshakeExchange(golden, to, handshakeAnswer, next, first) : undefined;
  return {
    header: {
      ...golden.header,
      era: to,
      protocolVersion: to === 'modern' ? MODERN_PROTOCOL_VERSION : LEGACY_PROTOCOL_VERSION,
    },
    frames: [...(made ?? []), ...frames],
  };
}

const LISTS = new Set(['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']);

/** The result (answering `method`) as the other era writes it. */
function crossMessage(message: JsonRpcMessage, to: Era, method: unknown): JsonRpcMessage {
  if (!isJsonObject(message.result)) return message;
  if (to === 'modern') {
    if (message.result.resultType !== undefined) return message;
    // A 2026-07-28 list result says how long it may be cached: not at all, for this client alone.
    const list = typeof method === 'string' && LISTS.has(method) && { ttlMs: 0, cacheScope: 'private' };
    return { ...message, result: { ...message.result, ...list, resultType: 'complete' } };
  }
  const { resultType: _type, ttlMs: _ttl, cacheScope: _scope, ...result } = message.result;
  return { ...message, result };
}

function crossFrame(frame: Frame, to: Era, method: unknown): Frame | undefined {
  if (frame.channel === 'http') {
    if (to === 'legacy' || frame.headers === undefined || !('mcp-session-id' in frame.headers)) return frame;
    const { 'mcp-session-id': _session, ...headers } = frame.headers;
    return { ...frame, headers };
  }
  if (frame.dir !== 'server->client') return frame;
  if (frame.channel !== 'sse' && frame.channel !== 'json' && frame.channel !== 'stdio') return frame;
  const message = frameMessage(frame);
  // An SSE event without a message (a priming event with its id) is 2025's resumption: not sent in 2026-07-28.
  if (!message) return frame.channel === 'sse' && to === 'modern' ? undefined : frame;
  const text = JSON.stringify(crossMessage(message, to, method));
  const raw =
    frame.channel === 'sse' ? `event: message\ndata: ${text}\n\n` : frame.channel === 'stdio' ? `${text}\n` : text;
  const { rawBase64: _bytes, ...rest } = frame;
  return { ...rest, raw };
}

/** Where a 2026-07-28 result names its server (the `initialize` answer's `serverInfo` in 2025). */
const SERVER_INFO_META = 'io.modelcontextprotocol/serverInfo';

/**
 * The server's name and version as the golden recorded them: the 2025 handshake's `serverInfo`, or
 * the `_meta` serverInfo of the discover answer or of any other 2026-07-28 result (never the target
 * the golden was recorded from, which names a URL or a command, not the server).
 */
function recordedServerInfo(golden: Transcript, answer: Record<string, unknown>): Record<string, unknown> | undefined {
  if (isJsonObject(answer.serverInfo)) return answer.serverInfo;
  const fromMeta = (result: unknown): Record<string, unknown> | undefined => {
    const meta = isJsonObject(result) && isJsonObject(result._meta) ? result._meta : undefined;
    const info = meta?.[SERVER_INFO_META];
    return isJsonObject(info) && typeof info.name === 'string' ? info : undefined;
  };
  const found = fromMeta(answer);
  if (found) return found;
  for (const frame of golden.frames) {
    if (frame.dir !== 'server->client') continue;
    const info = fromMeta(frameMessage(frame)?.result);
    if (info) return info;
  }
  return undefined;
}

/** The other era's handshake, made from this one's answer: `server/discover` or `initialize`. */
function handshakeExchange(
  golden: Transcript,
  to: Era,
  answer: Record<string, unknown>,
  exchange: number,
  t: number,
): Frame[] {
  const capabilities = isJsonObject(answer.capabilities) ? answer.capabilities : {};
  const instructions = typeof answer.instructions === 'string' ? { instructions: answer.instructions } : {};
  const request =
    to === 'modern'
      ? { jsonrpc: '2.0', id: 0, method: 'server/discover', params: {} }
      : legacyInitialize(0, LEGACY_PROTOCOL_VERSION, {}, { name: 'replay' });
  const serverInfo = recordedServerInfo(golden, answer) ?? { name: 'mcp-golden replay', version: '0' };
  const result =
    to === 'modern'
      ? {
          supportedVersions: [MODERN_PROTOCOL_VERSION],
          capabilities,
          ...instructions,
          resultType: 'complete',
          // As a 2026-07-28 server answers discover: not cached, and naming itself in `_meta`.
          ttlMs: 0,
          cacheScope: 'private',
          _meta: { [SERVER_INFO_META]: serverInfo },
        }
      : { protocolVersion: LEGACY_PROTOCOL_VERSION, capabilities, serverInfo, ...instructions };
  const response = JSON.stringify({ jsonrpc: '2.0', id: 0, result });
  if (golden.header.transport === 'stdio') {
    return [
      { t, dir: 'client->server', channel: 'stdio', exchange, raw: `${JSON.stringify(request)}\n` },
      { t, dir: 'server->client', channel: 'stdio', exchange, raw: `${response}\n` },
    ];
  }
  return [
    {
      t,
      dir: 'client->server',
      channel: 'http',
      exchange,
      method: 'POST',
      url: '/mcp',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
    },
    { t, dir: 'client->server', channel: 'json', exchange, raw: JSON.stringify(request) },
    {
      t,
      dir: 'server->client',
      channel: 'http',
      exchange,
      status: 200,
      headers: { 'content-type': 'application/json' },
    },
    { t, dir: 'server->client', channel: 'json', exchange, raw: response },
    { t, dir: 'server->client', channel: 'end', exchange, reason: 'complete' },
  ];
}
