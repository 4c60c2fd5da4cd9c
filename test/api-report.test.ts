import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

test('docs/api-report.md and README.md list exactly the public API of the code', () => {
  const run = spawnSync(process.execPath, ['scripts/api-report.mjs', '--check'], { cwd: root, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
});

test('the root entry exports at most 20 runtime values, none of them machinery', async () => {
  const api = await import('../src/index.js');
  const values = Object.keys(api);
  expect(values.length).toBeLessThanOrEqual(20);
  for (const internal of [
    'FrameSink',
    'SseParser',
    'ReplayEngine',
    'AliasTable',
    'buildReplayPlan',
    'encodeRaw',
    'splitSse',
    'canonicalJson',
  ]) {
    expect(values).not.toContain(internal);
  }
});
