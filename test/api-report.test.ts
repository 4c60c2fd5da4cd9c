import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
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

test('importing the root entry loads no MCP SDK: the reference server is loaded when recordReferenceGoldens starts it', () => {
  // A resolve hook in a child prints every module the import loads.
  const hooks = `export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write('loaded ' + r.url + '\\n'); return r; }`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      `data:text/javascript,${encodeURIComponent(register)}`,
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(pathToFileURL(`${root}dist/index.js`).href)})`,
    ],
    { encoding: 'utf8' },
  );
  expect(run.status).toBe(0);
  const loaded = run.stderr.split('\n').filter((line) => line.startsWith('loaded '));
  expect(loaded.some((line) => line.endsWith('/dist/record/record-call.js'))).toBe(true);
  expect(
    loaded.filter((line) =>
      /@modelcontextprotocol\/sdk|\/dist\/server\/(http-server|reference-server)\.js$/.test(line),
    ),
  ).toEqual([]);
});
