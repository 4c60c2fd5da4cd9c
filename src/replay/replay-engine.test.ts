import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { readGolden } from '../store/golden-file.js';
import { ReplayEngine } from './replay-engine.js';

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
