import type { Transcript } from '../transcript/frame.js';
import { frameMessage, type JsonRpcMessage } from '../transcript/frame-content.js';
import { normalizeTranscript } from '../transcript/normalize.js';
import { type Call, readToolCall } from '../transcript/read-calls.js';

/** The parts of a recorded client session that `verify` compares, normalised. */
export interface SessionView {
  /** Answers to the listing requests the client sent (`tools/list`, `prompts/list`, `resources/list`...), by method. */
  readonly lists: ReadonlyMap<string, JsonRpcMessage>;
  /** The `tools/call` as the client saw it: progress with arrival times, the response. */
  readonly call: Call;
  /** Requests the server sent the client (sampling, elicitation, roots), in order. */
  readonly serverRequests: readonly JsonRpcMessage[];
}

const LISTS = /^(tools|prompts|resources|resources\/templates)\/list$/;

/**
 * Reads a session transcript after normalisation (ids, tokens, sessions, event ids, dates and
 * ports as numbered aliases), so two runs of the same scenario read the same.
 */
export function sessionView(transcript: Transcript): SessionView {
  const normal = normalizeTranscript(transcript);
  const pending = new Map<string, string>();
  const lists = new Map<string, JsonRpcMessage>();
  const serverRequests: JsonRpcMessage[] = [];
  for (const frame of normal.frames) {
    const message = frameMessage(frame);
    if (!message) continue;
    const hasMethod = typeof message.method === 'string';
    if (frame.dir === 'client->server') {
      if (hasMethod && 'id' in message && LISTS.test(message.method as string)) {
        pending.set(JSON.stringify(message.id), message.method as string);
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
