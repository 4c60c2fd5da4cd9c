import { isJsonObject } from '../transcript/json-object.js';
import { jsonRpcError } from './json-rpc-error.js';

/** The key of the elicitation each `input_required` round of the `inputRounds` fault asks. */
export const INPUT_ROUND_KEY = 'confirm';

/** The elicitation each round asks under {@link INPUT_ROUND_KEY}; any `accept` answers it. */
const ROUND_REQUEST = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Go ahead? (mcp-golden fault: input_required)',
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  },
} as const;

/**
 * The `requestState` of round `round` (from 1): a JSON text not in canonical form (spaces, `1.0`,
 * `2e0`, `\u` escapes) with non-ASCII and a line separator, so a client that parses and writes it
 * again, or re-encodes the string, echoes another value than the one the server sent.
 */
export function inputRoundState(round: number): string {
  return `{"round": ${round},  "n": [1.0, 2e0, -0], "s": "\\u00e9 é🚀 \\"q\\" \\/ \u2028", "z" : null}`;
}

/** What the fault does with one `tools/call`. */
export type InputRoundStep =
  /** Answer `input_required` round `round` (from 1) on an SSE stream: `text` is the event. */
  | { readonly kind: 'ask'; readonly round: number; readonly event: string }
  /** Refuse the retry (a `requestState` the server never sent, or no answer): `text` is the JSON-RPC error. */
  | { readonly kind: 'refuse'; readonly why: string; readonly text: string }
  /** The last round was answered: the golden answers `body`, the request without its round fields. */
  | { readonly kind: 'complete'; readonly body: string };

/**
 * The `inputRounds` fault's reading of one `tools/call` (`message`, its parsed body): a call without
 * `requestState` is asked round 1; a retry whose `requestState` is, byte for byte, round k's and
 * whose `inputResponses` answer the elicitation is asked round k+1, or, after the last round,
 * answered by the golden as the call without `inputResponses` and `requestState`.
 */
export function inputRoundStep(message: Record<string, unknown>, rounds: number): InputRoundStep {
  const params = isJsonObject(message.params) ? message.params : {};
  const state = params.requestState;
  const ask = (round: number): InputRoundStep => {
    const result = { resultType: 'input_required', inputRequests: { [INPUT_ROUND_KEY]: ROUND_REQUEST } };
    const text = JSON.stringify({ jsonrpc: '2.0', id: message.id ?? null, result });
    // requestState is written last, as its own JSON string literal (JSON.stringify keeps é, 🚀 and U+2028 as they are).
    const withState = `${text.slice(0, -2)},"requestState":${JSON.stringify(inputRoundState(round))}}}`;
    return { kind: 'ask', round, event: `event: message\ndata: ${withState}\n\n` };
  };
  const refuse = (why: string): InputRoundStep => ({
    kind: 'refuse',
    why,
    text: jsonRpcError(message.id, -32602, `mcp-golden fault (input rounds): ${why}.`),
  });
  if (state === undefined) return ask(1);
  const round = Array.from({ length: rounds }, (_, i) => i + 1).find((k) => inputRoundState(k) === state);
  if (round === undefined)
    return refuse(
      `requestState ${JSON.stringify(state).slice(0, 200)} is not one this server sent; echo the last input_required's requestState byte for byte (round 1's was ${JSON.stringify(inputRoundState(1))})`,
    );
  const answers = isJsonObject(params.inputResponses) ? params.inputResponses : {};
  if (!(INPUT_ROUND_KEY in answers))
    return refuse(`inputResponses has no answer for "${INPUT_ROUND_KEY}" (round ${round}'s elicitation)`);
  if (round < rounds) return ask(round + 1);
  const { requestState: _state, inputResponses: _answers, ...rest } = params;
  return { kind: 'complete', body: JSON.stringify({ ...message, params: rest }) };
}
