import type { Era, Frame, Transcript } from '../transcript/frame.js';
import { MODERN_PROTOCOL_VERSION } from '../transcript/frame.js';
import { frameMessage, type JsonRpcMessage } from '../transcript/frame-content.js';
import type { GoldenNotes } from '../transcript/golden-notes.js';
import { isJsonObject } from '../transcript/json-object.js';
import { isIdLike, paramsOf, requestProgressToken } from '../transcript/json-rpc.js';
import { envelopeVersion } from '../transcript/modern-envelope.js';
import { readCalls } from '../transcript/read-calls.js';
import { DEFAULT_PROTOCOL_VERSION } from '../version.js';
import { recordedAnswers } from './scenario-of-golden.js';
import type { ScenarioStep } from './scenario-session.js';

/** Requests that only ask which protocol version the server speaks. */
const VERSION_ONLY = new Set(['server/discover', 'initialize']);

/** Requests verify's re-run sends itself (its handshake): no step of the session. */
const HANDSHAKE = new Set([
  'initialize',
  'server/discover',
  'ping',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'prompts/list',
]);

const clientMessages = (frames: readonly Frame[]): JsonRpcMessage[] =>
  frames
    .filter((f) => f.dir === 'client->server')
    .map(frameMessage)
    .filter((m): m is JsonRpcMessage => m !== undefined);

const isRequest = (m: JsonRpcMessage): boolean => typeof m.method === 'string' && 'id' in m;

/**
 * The era of one exchange, read off what the client sent: `modern` for a request with the
 * per-request envelope or the 2026-07-28 headers, `legacy` for any other request, `undefined` for an
 * exchange that carries no request (a client's answer to the server, a stream it opened).
 */
function exchangeEra(frames: readonly Frame[]): Era | undefined {
  let era: Era | undefined;
  for (const frame of frames) {
    if (frame.dir !== 'client->server') continue;
    const headers = frame.channel === 'http' ? frame.headers : undefined;
    if (headers?.['mcp-method'] !== undefined || headers?.['mcp-protocol-version'] === MODERN_PROTOCOL_VERSION)
      return 'modern';
    const message = frameMessage(frame);
    if (message && envelopeVersion(message) !== undefined) return 'modern';
    if (message && typeof message.method === 'string') era = 'legacy';
  }
  return era;
}

/**
 * One client session split by era: a stateless dual-era server gives neither era a session id, so a
 * 2026-07-28 client's requests and a 2025 client's session arrive as one; each is a golden of its
 * own. Exchanges that carry no request go with the era of the session's other exchanges (legacy
 * when both are there: only a 2025 session has streams and answers of its own).
 */
export function splitByEra(session: Transcript): Transcript[] {
  const byExchange = new Map<number, Frame[]>();
  for (const frame of session.frames) {
    const list = byExchange.get(frame.exchange);
    if (list) list.push(frame);
    else byExchange.set(frame.exchange, [frame]);
  }
  const eras = new Map<number, Era | undefined>();
  for (const [exchange, frames] of byExchange) eras.set(exchange, exchangeEra(frames));
  const seen = new Set([...eras.values()].filter((e): e is Era => e !== undefined));
  if (seen.size < 2) return [session];
  const of = (exchange: number): Era => eras.get(exchange) ?? 'legacy';
  return (['legacy', 'modern'] as const).map((era) => ({
    header: session.header,
    frames: session.frames.filter((f) => of(f.exchange) === era),
  }));
}

/** A name for a golden from what its client asked: the tools it called, else its first request's method. */
function nameOf(requests: readonly JsonRpcMessage[]): string {
  const tools = [
    ...new Set(requests.filter((m) => m.method === 'tools/call').map((m) => String(paramsOf(m).name ?? ''))),
  ];
  const first =
    requests.find((m) => !HANDSHAKE.has(String(m.method))) ??
    requests.find((m) => !VERSION_ONLY.has(String(m.method))) ??
    requests[0];
  const raw = tools.length > 0 ? tools.join('+') : String(first?.method ?? 'session');
  const name = raw
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 80);
  return name === '' ? 'session' : name;
}

/**
 * The session's requests as the steps of a scenario, so `verify` re-runs what the client did: each
 * call with its tool, arguments, progress token and the cancel after progress k it sent; each other
 * request with its params. The handshake (initialize or server/discover, the lists) is the re-run's
 * own, and a call's later rounds (an `input_required` retry, a task's polls) are the call's.
 */
function stepsOf(session: Transcript): ScenarioStep[] {
  const steps: ScenarioStep[] = [];
  for (const call of readCalls(session).calls) {
    const request = call.request;
    if (!request || typeof request.method !== 'string' || HANDSHAKE.has(request.method)) continue;
    if (request.method.startsWith('tasks/') || request.method.startsWith('notifications/')) continue;
    const params = paramsOf(request);
    if (request.method !== 'tools/call') {
      const { _meta: _, ...rest } = params;
      steps.push({ method: request.method, ...(Object.keys(rest).length > 0 && { params: rest }) });
      continue;
    }
    const token = requestProgressToken(request).token;
    const cancelAt = call.cancelAtMs;
    const cancelAfter =
      cancelAt === undefined ? undefined : call.progress.filter((p) => p.atMs <= cancelAt).length || undefined;
    steps.push({
      tool: String(params.name),
      arguments: isJsonObject(params.arguments) ? params.arguments : {},
      ...(isIdLike(token) && { progressToken: token }),
      ...(isIdLike(token) && cancelAfter !== undefined && { cancelAfter }),
    });
  }
  return steps;
}

/**
 * A recorded client session (of a recording proxy or a pass-through) as the golden `record` would
 * have written for it: named by its calls (header `scenario`, `tool` and `arguments` of its first
 * call), in its own era and version, timed from its own first frame, and with its requests as
 * `notes.steps` (and the answers its client gave the server's requests as `notes.answers`) so
 * `verify` re-runs them. `undefined` for a session that only asked which protocol version the server
 * speaks (the SDK v2 client's probe in `auto` mode): nothing a golden should hold.
 */
export function sessionGolden(session: Transcript): Transcript | undefined {
  const messages = clientMessages(session.frames);
  const requests = messages.filter(isRequest);
  if (requests.every((m) => VERSION_ONLY.has(String(m.method)))) return undefined;
  const init = requests.find((m) => m.method === 'initialize');
  const enveloped = init ? undefined : requests.map(envelopeVersion).find((v) => v !== undefined);
  const asked = init && paramsOf(init).protocolVersion;
  const call = requests.find((m) => m.method === 'tools/call');
  const callParams = call && paramsOf(call);
  const steps = stepsOf(session);
  const answers = recordedAnswers(session);
  const notes: GoldenNotes = {
    ...(session.header.notes as GoldenNotes | undefined),
    ...(call && steps.some((s) => 'tool' in s) && { steps: steps as unknown as Record<string, unknown>[] }),
    ...(Object.keys(answers).length > 0 && { answers }),
  };
  const t0 = session.frames[0]?.t ?? 0;
  return {
    header: {
      ...session.header,
      era: enveloped === undefined ? 'legacy' : 'modern',
      protocolVersion: enveloped ?? (typeof asked === 'string' ? asked : DEFAULT_PROTOCOL_VERSION),
      scenario: nameOf(requests),
      ...(callParams && {
        tool: String(callParams.name),
        arguments: isJsonObject(callParams.arguments) ? callParams.arguments : {},
      }),
      notes,
    },
    frames: session.frames.map((frame) => ({ ...frame, t: frame.t - t0 })),
  };
}
