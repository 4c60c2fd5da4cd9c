import { describe, expect, it } from 'vitest';
import { INPUT_ROUND_KEY, inputRoundState, inputRoundStep } from './input-rounds.js';

const call = (id: number, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'chatty', arguments: {}, _meta: { progressToken: 't' }, ...extra },
});
const accept = { [INPUT_ROUND_KEY]: { action: 'accept', content: { ok: true } } };
/** The JSON-RPC message of an `ask` step's SSE event. */
const asked = (step: ReturnType<typeof inputRoundStep>): Record<string, unknown> => {
  if (step.kind !== 'ask') throw new Error(`expected an ask, got ${step.kind}`);
  expect(step.event).toMatch(/^event: message\ndata: .*\n\n$/s);
  return JSON.parse(step.event.slice('event: message\ndata: '.length));
};

describe('the input rounds fault', () => {
  it('gives each round a requestState that re-serialising changes', () => {
    for (const round of [1, 2]) {
      const state = inputRoundState(round);
      expect(JSON.parse(state).round).toBe(round);
      expect(JSON.stringify(JSON.parse(state))).not.toBe(state);
    }
    expect(inputRoundState(1)).not.toBe(inputRoundState(2));
  });

  it('asks round 1, then round 2 for a byte-exact echo, then hands the golden the call without its round fields', () => {
    const first = asked(inputRoundStep(call(1), 2));
    expect(first).toMatchObject({ id: 1, result: { resultType: 'input_required', requestState: inputRoundState(1) } });
    expect(first.result).toHaveProperty(['inputRequests', INPUT_ROUND_KEY, 'method'], 'elicitation/create');
    const second = asked(inputRoundStep(call(2, { requestState: inputRoundState(1), inputResponses: accept }), 2));
    expect(second).toMatchObject({ id: 2, result: { requestState: inputRoundState(2) } });
    const done = inputRoundStep(call(3, { requestState: inputRoundState(2), inputResponses: accept }), 2);
    expect(done.kind === 'complete' && JSON.parse(done.body)).toEqual(call(3));
  });

  it('refuses a re-serialised requestState and a retry that does not answer', () => {
    const reserialised = JSON.stringify(JSON.parse(inputRoundState(1)));
    const wrong = inputRoundStep(call(2, { requestState: reserialised, inputResponses: accept }), 2);
    expect(wrong.kind).toBe('refuse');
    expect(wrong.kind === 'refuse' && JSON.parse(wrong.text)).toMatchObject({
      id: 2,
      error: { code: -32602, message: expect.stringContaining('is not one this server sent') },
    });
    const unanswered = inputRoundStep(call(2, { requestState: inputRoundState(1) }), 2);
    expect(unanswered.kind === 'refuse' && unanswered.why).toMatch(/no answer for "confirm"/);
  });
});
