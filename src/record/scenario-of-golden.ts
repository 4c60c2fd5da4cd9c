import { GoldenError } from '../errors.js';
import { eraOf, type Transcript } from '../transcript/frame.js';
import { frameMessage, type JsonRpcMessage } from '../transcript/frame-content.js';
import { goldenNotes } from '../transcript/golden-notes.js';
import { isJsonObject } from '../transcript/json-object.js';
import { isIdLike, paramsOf, requestProgressToken, resultOf } from '../transcript/json-rpc.js';
import { parseScenario, type Scenario } from './scenario.js';

/**
 * The answers the client sent to the server's requests, by method, read off the recorded frames:
 * the header's copy has its keys sorted, and a server that echoes an answer must get it as it was sent.
 * Both eras: a 2025 server's request answered by a response with its id, and a 2026-07-28
 * `input_required` round answered by the retried call's `inputResponses` (each under the key the
 * round's `inputRequests` gave its request).
 */
export function recordedAnswers(golden: Transcript): Record<string, Record<string, unknown>> {
  const asked = new Map<string, string>();
  const answers: Record<string, Record<string, unknown>> = {};
  const answer = (method: string | undefined, result: unknown): void => {
    if (method !== undefined && method !== 'ping' && !(method in answers) && isJsonObject(result)) {
      answers[method] = result;
    }
  };
  let round: ReadonlyMap<string, string> | undefined;
  for (const frame of golden.frames) {
    const message = frameMessage(frame);
    if (!message || !('id' in message)) continue;
    const id = JSON.stringify(message.id);
    if (frame.dir === 'server->client' && typeof message.method === 'string') asked.set(id, message.method);
    else if (frame.dir === 'server->client') round = inputRequestsOf(message) ?? round;
    else if (message.method === undefined) answer(asked.get(id), message.result);
    else if (round !== undefined && message.method === 'tools/call') {
      const responses = paramsOf(message).inputResponses;
      if (isJsonObject(responses))
        for (const [key, result] of Object.entries(responses)) answer(round.get(key), result);
      round = undefined;
    }
  }
  return answers;
}

/** An `input_required` result's requests: key → the method of the request under it. */
function inputRequestsOf(message: JsonRpcMessage): ReadonlyMap<string, string> | undefined {
  const result = resultOf(message);
  if (result?.resultType !== 'input_required' || !isJsonObject(result.inputRequests)) return undefined;
  const methods = new Map<string, string>();
  for (const [key, request] of Object.entries(result.inputRequests)) {
    if (isJsonObject(request) && typeof request.method === 'string') methods.set(key, request.method);
  }
  return methods;
}

/**
 * The scenario that recorded a golden, rebuilt from its `tools/call` frame (arguments in their
 * wire order, token, request id and a 2025 `task` verbatim) and its header notes (cancel and resume steps, answers, an expected error), so
 * the same call can be replayed against another target and compared.
 */
export function scenarioOfGolden(golden: Transcript): Scenario {
  const call = golden.frames.map(frameMessage).find((m) => m?.method === 'tools/call' && 'id' in m);
  if (!call) {
    throw new GoldenError(
      'E_SCENARIO',
      `Golden "${golden.header.scenario ?? '?'}" has no tools/call request, so it names no scenario to run.`,
    );
  }
  const notes = goldenNotes(golden.header);
  if (notes.steps !== undefined) {
    // A session: its steps as recorded, checked as any scenario is.
    return parseScenario(
      {
        ...(golden.header.scenario !== undefined && { name: golden.header.scenario }),
        steps: notes.steps,
        ...(notes.answers !== undefined && { answers: notes.answers }),
        transport: golden.header.transport,
        // A modern session is re-run as a modern client; a legacy one asks for the version it recorded.
        ...(eraOf(golden.header) === 'modern' ? { era: 'modern' } : { protocolVersion: golden.header.protocolVersion }),
      },
      `in golden "${golden.header.scenario ?? '?'}"`,
    );
  }
  const params = paramsOf(call);
  const token = requestProgressToken(call).token;
  const { cancelAfter, dropAfter } = notes;
  const answers = { ...notes.answers, ...recordedAnswers(golden) };
  const isAnswers = Object.keys(answers).length > 0;
  return {
    ...(golden.header.scenario !== undefined && { name: golden.header.scenario }),
    tool: String(params.name),
    arguments: isJsonObject(params.arguments) ? params.arguments : {},
    ...(isIdLike(token) && { progressToken: token }),
    ...(isIdLike(call.id) && { requestId: call.id }),
    ...(cancelAfter !== undefined && { cancelAfter }),
    ...(dropAfter !== undefined && { dropAfter }),
    ...(notes.expectError !== undefined && { expectError: notes.expectError }),
    // A 2025-11-25 task-augmented call asked for a task with `params.task`: asked again the same way.
    ...(isJsonObject(params.task) && { task: params.task }),
    ...(isAnswers && { answers: answers as NonNullable<Scenario['answers']> }),
    transport: golden.header.transport,
    // A modern golden is re-run as a modern client; a legacy one asks for the version it recorded.
    ...(eraOf(golden.header) === 'modern'
      ? { era: 'modern' as const }
      : { era: 'legacy' as const, protocolVersion: golden.header.protocolVersion }),
  };
}
