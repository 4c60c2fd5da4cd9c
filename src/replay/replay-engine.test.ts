import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { readGolden } from '../store/golden-file.js';
import { CALL_LIMIT, ReplayEngine } from './replay-engine.js';

test('the report keeps the last 10,000 requests, dropping the oldest first', async () => {
  const golden = await readGolden(fileURLToPath(new URL('../../goldens/progress-small.jsonl', import.meta.url)));
  const engine = new ReplayEngine([golden]);
  const session = engine.openSession('http');
  for (let n = 0; n < 10_005; n++) {
    engine.note(session, 'POST', { jsonrpc: '2.0', id: n, method: 'ping' }, undefined);
  }
  const { requests } = engine.report();
  expect(requests).toHaveLength(10_000);
  expect(requests[0]).toMatchObject({ method: 'ping', id: 5 });
  expect(requests.at(-1)).toMatchObject({ method: 'ping', id: 10_004 });
  engine.receive(session, { jsonrpc: '2.0', method: 'notifications/initialized' });
  expect(engine.report().requests.at(-1)).toMatchObject({ method: 'notifications/initialized' });
  expect(engine.report().requests).toHaveLength(10_000);
  engine.close();
});

test('cancelled calls count against the 64-call cap of a session (issue 32)', async () => {
  const golden = await readGolden(fileURLToPath(new URL('../../goldens/progress-10x100.jsonl', import.meta.url)));
  const engine = new ReplayEngine([golden]);
  const session = engine.openSession('stdio');
  for (let id = 1; id <= 500; id++) {
    const params = { name: 'progress', arguments: { steps: 10, step_ms: 100 }, _meta: { progressToken: id } };
    expect(engine.receive(session, { jsonrpc: '2.0', id, method: 'tools/call', params }).kind).toBe('call');
    engine.receive(session, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } });
  }
  expect(session.calls.length).toBeLessThanOrEqual(CALL_LIMIT + 1);
  expect(session.calls.every((c) => c.cancelled)).toBe(true);
  engine.close();
});
