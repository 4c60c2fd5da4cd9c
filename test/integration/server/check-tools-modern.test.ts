import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordCall } from '../../../src/record/record-call.js';
import { ROUND_REQUEST, ROUND_STATE } from '../../../src/server/check-tools.js';
import { type ReferenceServer, startReferenceServer } from '../../../src/server/http-server.js';
import { frameMessage } from '../../../src/transcript/frame-content.js';
import { resultOf } from '../../../src/transcript/json-rpc.js';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ checkTools: true });
});
afterAll(async () => {
  await server.close();
});

const answer = { action: 'accept', content: { ok: true } };

describe('the check tools input_round and silent_result', () => {
  test('input_round answers input_required in the 2026-07-28 era, and the audit keeps what each round received and sent', async () => {
    const recording = await recordCall(server.url, {
      tool: 'input_round',
      arguments: { tag: 'unit-round' },
      era: 'modern',
      answers: { 'elicitation/create': answer },
    });
    const asked = recording.frames
      .map(frameMessage)
      .map((m) => resultOf(m))
      .find((r) => r?.resultType === 'input_required');
    expect(asked).toMatchObject({ inputRequests: { confirm: ROUND_REQUEST }, requestState: ROUND_STATE });
    expect(resultOf(recording.outcome.response)).toMatchObject({
      resultType: 'complete',
      structuredContent: { inputResponses: { confirm: answer }, requestState: ROUND_STATE },
    });
    const rows = server.audit.entries().filter((e) => (e.arguments as { tag?: string }).tag === 'unit-round');
    expect(rows.map((r) => r.inputRound)).toEqual([
      { sent: { resultType: 'input_required', inputRequests: { confirm: ROUND_REQUEST }, requestState: ROUND_STATE } },
      { received: { inputResponses: { confirm: answer }, requestState: ROUND_STATE } },
    ]);
  });

  test('input_round in the 2025 era is a tool error saying it needs 2026-07-28', async () => {
    const recording = await recordCall(server.url, { tool: 'input_round', arguments: { tag: 'unit-legacy' } });
    expect(resultOf(recording.outcome.response)).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/needs the 2026-07-28 era/) }],
    });
  });

  test('silent_result sends no response headers in the 2026-07-28 era until its result', async () => {
    const recording = await recordCall(server.url, {
      tool: 'silent_result',
      arguments: { silent_ms: 400, tag: 'unit-silent' },
      era: 'modern',
    });
    const call = recording.frames.find((f) => f.dir === 'client->server' && frameMessage(f)?.method === 'tools/call');
    const sent = recording.frames.find((f) => f.exchange === call?.exchange)?.t ?? 0;
    const head = recording.frames.find(
      (f) => f.exchange === call?.exchange && f.dir === 'server->client' && f.channel === 'http',
    );
    // Late is fine on a loaded machine; early would mean headers before the result.
    expect(((head?.t ?? 0) - sent) / 1000).toBeGreaterThanOrEqual(380);
    expect(resultOf(recording.outcome.response)).toMatchObject({ structuredContent: { silent_ms: 400, done: true } });
  });
});
