import { canonicalJson } from '../transcript/canonical-json.js';
import type { Transcript } from '../transcript/frame.js';
import { frameMessage, type JsonRpcMessage } from '../transcript/frame-content.js';
import { paramsWithoutMeta } from '../transcript/json-rpc.js';
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

const LISTS = /^(tools|prompts|resources|resources\/templates)\/list$/;
/** Requests whose answers carry nothing to compare. */
const UNCOMPARED = new Set(['initialize', 'ping']);

const isRetry = (message: JsonRpcMessage): boolean => {
  const params = message.params as { inputResponses?: unknown } | undefined;
  return params?.inputResponses !== undefined;
};

/**
 * Reads a session transcript after normalisation (ids, tokens, sessions, event ids, dates and
 * ports as numbered aliases), so two runs of the same scenario read the same.
 */
export function sessionView(transcript: Transcript): SessionView {
  const normal = normalizeTranscript(transcript);
  const pending = new Map<string, string>();
  const lists = new Map<string, JsonRpcMessage>();
  const serverRequests: JsonRpcMessage[] = [];
  let firstCall = true;
  for (const frame of normal.frames) {
    const message = frameMessage(frame);
    if (!message) continue;
    const hasMethod = typeof message.method === 'string';
    if (frame.dir === 'client->server') {
      if (hasMethod && 'id' in message && !UNCOMPARED.has(message.method as string)) {
        const method = message.method as string;
        // The first call is `call`, compared in full (progress too); a session's later calls by their answer.
        if (method === 'tools/call' && firstCall) {
          firstCall = false;
          continue;
        }
        // An input_required round's retry (2026-07-28) is part of its call, whose result `call` compares.
        if (method === 'tools/call' && isRetry(message)) continue;
        // A task's tasks/* requests (tasks extension) are rounds of its call too: how many polls it took varies.
        if (method.startsWith('tasks/')) continue;
        // A session's other requests (resources/read, prompts/get...) are told apart by what they ask.
        pending.set(
          JSON.stringify(message.id),
          LISTS.test(method) ? method : `${method} ${canonicalJson(paramsWithoutMeta(message))}`,
        );
      }
      continue;
    }
    if (hasMethod && 'id' in message) serverRequests.push(message);
    else if (!hasMethod && 'id' in message) {
      const method = pending.get(JSON.stringify(message.id));
      if (method !== undefined && !lists.has(method)) lists.set(method, message);
    }
  }
  return { lists, call: readToolCall(normal), serverRequests };
}
