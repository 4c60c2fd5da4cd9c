import { GoldenError } from '../errors.js';
import { MODERN_PROTOCOL_VERSION } from '../transcript/frame.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { isJsonObject } from '../transcript/json-object.js';
import { resultOf } from '../transcript/json-rpc.js';
import { ENVELOPE_KEYS, TASKS_EXTENSION } from '../transcript/modern-envelope.js';

export { paramHeadersOf } from '../transcript/modern-envelope.js';

import { VERSION } from '../version.js';
import { describeScenario, type Scenario } from './scenario.js';

/** The capability each embedded input request (or legacy server request) needs the client to declare. */
const CAPABILITY_OF: Readonly<Record<string, string>> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

/** Client capabilities matching the scenario's `answers`: a server only asks what a client declared. */
export function clientCapabilities(scenario: Scenario): Record<string, object> {
  const capabilities: Record<string, object> = {};
  for (const method of Object.keys(scenario.answers ?? {})) {
    const capability = CAPABILITY_OF[method];
    if (capability) capabilities[capability] = {};
  }
  return capabilities;
}

/**
 * `message` with the modern era's per-request envelope in `params._meta` (protocol version,
 * client info, client capabilities with the tasks extension), beside whatever `_meta` it already carries (a progress token).
 */
export function withEnvelope(message: JsonRpcMessage, scenario: Scenario): JsonRpcMessage {
  const params = isJsonObject(message.params) ? message.params : {};
  const meta = isJsonObject(params._meta) ? params._meta : {};
  return {
    ...message,
    params: {
      ...params,
      _meta: {
        [ENVELOPE_KEYS.protocolVersion]: MODERN_PROTOCOL_VERSION,
        [ENVELOPE_KEYS.clientInfo]: { name: 'mcp-golden', version: VERSION },
        // The recorder follows tasks (tasks extension): a server may answer any call with one.
        [ENVELOPE_KEYS.clientCapabilities]: { ...clientCapabilities(scenario), extensions: { [TASKS_EXTENSION]: {} } },
        ...meta,
      },
    },
  };
}

/** True when a `server/discover` answer offers the modern revision. */
export function offersModern(response: JsonRpcMessage | undefined): boolean {
  const versions = response ? resultOf(response)?.supportedVersions : undefined;
  return Array.isArray(versions) && versions.includes(MODERN_PROTOCOL_VERSION);
}

/** The `resultType` of a modern result (`complete`, `input_required`, `task`), if it names one. */
export function resultTypeOf(response: JsonRpcMessage): string | undefined {
  const type = resultOf(response)?.resultType;
  return typeof type === 'string' ? type : undefined;
}

/**
 * The `inputResponses` answering an `input_required` result, each from the scenario's `answers`
 * for the embedded request's method; a request the scenario has no answer for fails the recording
 * with the fix.
 */
export function inputResponsesFor(scenario: Scenario, response: JsonRpcMessage): Record<string, unknown> {
  const requests = resultOf(response)?.inputRequests;
  const responses: Record<string, unknown> = {};
  if (!isJsonObject(requests)) return responses;
  for (const [key, request] of Object.entries(requests)) {
    const method = isJsonObject(request) ? String(request.method) : 'an unknown method';
    const answer = scenario.answers?.[method];
    if (answer === undefined) {
      throw new GoldenError(
        'E_RECORD',
        `Recording ${describeScenario(scenario)} failed: the server answered input_required with a ${method} request ("${key}") and the scenario has no answer for it. Expected an "answers" entry, got none. Add "answers": {"${method}": <result>} to the scenario.`,
      );
    }
    responses[key] = answer;
  }
  return responses;
}
