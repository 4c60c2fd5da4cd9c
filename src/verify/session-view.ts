import { canonicalJson } from '../transcript/canonical-json.js';
import type { Transcript } from '../transcript/frame.js';
import { frameMessage, type JsonRpcMessage } from '../transcript/frame-content.js';
import { errorOf, paramsWithoutMeta } from '../transcript/json-rpc.js';
import { normalizeTranscript } from '../transcript/normalize.js';
import { type Call, readToolCall } from '../transcript/read-calls.js';

/** The parts of a recorded client session that `verify` compares, normalised. */
export interface SessionView {
  /**
   * Answers to the client's other requests: the lists (`tools/list`, `prompts/list`, `resources/list`...)
   * by method, a session's other requests (`resources/read`, `prompts/get`...) by method and params.
   */
  readonly lists: ReadonlyMap<string, JsonRpcMessage>;
  /** The `tools/call` as the client saw it: progress with arrival times, the response. */
  readonly call: Call;
  /** Requests the server sent the client (sampling, elicitation, roots), in order. */
  readonly serverRequests: readonly JsonRpcMessage[];
}

/** The 2026-07-28 error for a request whose headers and body disagree: the client sends it again. */
const HEADER_MISMATCH = -32020;
/** What an answer's id reads as once it is paired with its request. */
const ANSWER = '<answer>';
const LISTS = /^(tools|prompts|resources|resources\/templates)\/list$/;
/** Requests whose answers carry nothing to compare. */
const UNCOMPARED = new Set(['initialize', 'ping']);

const isRetry = (message: JsonRpcMessage): boolean => {
  const params = message.params as { inputResponses?: unknown } | undefined;
  return params?.inputResponses !== undefined;
};

/**
 * The message with its JSON-RPC `id` named by its role (`label`) instead of the number the client or
 * server gave it: an answer is paired with its request by id before it is compared, so the id itself
 * says nothing more, while its normalised alias depends on how many requests came before it (a
 * client that lists prompts before the call, or not). So a session recorded from any client (a
 * recording proxy, a pass-through) compares with verify's own re-run of it.
 */
function withRoleId(message: JsonRpcMessage, label: string): JsonRpcMessage {
  return 'id' in message ? { ...message, id: label } : message;
}

/**
 * Reads a session transcript after normalisation (ids, tokens, sessions, event ids, dates and
 * ports as numbered aliases), so two runs of the same scenario read the same. The ids of the answers
 * and of the server's requests are named by their role (`<answer>`, `<server-request-n>`): which
 * request an answer belongs to is how it was found, and the numbers depend on the client's order.
 */
export function sessionView(transcript: Transcript): SessionView {
  const normal = normalizeTranscript(transcript);
  const pending = new Map<string, string>();
  const lists = new Map<string, JsonRpcMessage>();
  const serverRequests: JsonRpcMessage[] = [];
  let firstCall = true;
  let firstCallKey: string | undefined;
  let firstCallId: string | undefined;
  let resent = false;
  for (const frame of normal.frames) {
    const message = frameMessage(frame);
    if (!message) continue;
    const hasMethod = typeof message.method === 'string';
    if (frame.dir === 'client->server') {
      if (hasMethod && 'id' in message && !UNCOMPARED.has(message.method as string)) {
        const method = message.method as string;
        const key = `${method} ${canonicalJson(paramsWithoutMeta(message))}`;
        // The first call is `call`, compared in full (progress too); a session's later calls by their answer.
        if (method === 'tools/call' && firstCall) {
          firstCall = false;
          firstCallKey = key;
          firstCallId = JSON.stringify(message.id);
          continue;
        }
        // The first call sent again after the server refused its headers (-32020): a round of `call`.
        if (key === firstCallKey && resent) {
          resent = false;
          continue;
        }
        // An input_required round's retry (2026-07-28) is part of its call, whose result `call` compares.
        if (method === 'tools/call' && isRetry(message)) continue;
        // A task's tasks/* requests (tasks extension) are rounds of its call too: how many polls it took varies.
        if (method.startsWith('tasks/')) continue;
        // A session's other requests (resources/read, prompts/get...) are told apart by what they ask.
        pending.set(JSON.stringify(message.id), LISTS.test(method) ? method : key);
      }
      continue;
    }
    if (hasMethod && 'id' in message)
      serverRequests.push(withRoleId(message, `<server-request-${serverRequests.length + 1}>`));
    else if (!hasMethod && 'id' in message) {
      // A refusal of the request's headers (2026-07-28, -32020) is answered again by its re-send.
      if (errorOf(message)?.code === HEADER_MISMATCH) {
        if (JSON.stringify(message.id) === firstCallId) resent = true;
        continue;
      }
      const method = pending.get(JSON.stringify(message.id));
      if (method !== undefined && !lists.has(method)) lists.set(method, withRoleId(message, ANSWER));
    }
  }
  const call = readToolCall(normal);
  const response = call.response && { ...call.response, message: withRoleId(call.response.message, ANSWER) };
  return { lists, call: { ...call, response }, serverRequests };
}
