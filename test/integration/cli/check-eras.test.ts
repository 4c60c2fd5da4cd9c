import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { runInProcess } from '../../support/in-process-cli.js';

// A byte-streaming reverse proxy: faithful within an era, no bridge between eras.
const GATEWAY = fileURLToPath(new URL('../../support/faithful-gateway.mjs', import.meta.url));
const gateway = ['--gateway', `node ${GATEWAY} {upstream} {port}`];

describe('check --client-era, --upstream-era, --eras all', () => {
  test('--eras all prints one table per combination: a plain proxy passes legacy/legacy and modern/modern, fails the mixed ones', async () => {
    const result = await runInProcess(
      ['check', ...gateway, '--eras', 'all', '--only', 'blocks', '--only', '2026-07-28'],
      {
        timeoutMs: 120_000,
      },
    );
    expect(result.code).toBe(1);
    const headings = [...result.stdout.matchAll(/^== client era (\w+), upstream era (\w+)$/gm)].map(
      (m) => `${m[1]}/${m[2]}`,
    );
    expect(headings).toEqual(['legacy/legacy', 'legacy/modern', 'modern/legacy', 'modern/modern']);
    const summaries = [...result.stdout.matchAll(/^\d+ passed, \d+ failed, \d+ not applicable: (.*)$/gm)].map(
      (m) => m[1],
    );
    // Narrowed with --only, a passing table says what it covered, not that the gateway is faithful.
    const covered =
      'the gateway forwards the rows run (--only "blocks", "2026-07-28") faithfully; the rest of the battery was not run';
    expect(summaries).toEqual([
      covered,
      'the gateway breaks MCP streaming',
      'the gateway breaks MCP streaming',
      covered,
    ]);
    const modern = result.stdout.split('== client era modern, upstream era modern')[1] ?? '';
    expect(modern).toContain('client era modern, upstream era modern');
    expect(modern).toMatch(/cancel by closing the stream \(2026-07-28\)\s+\| pass/);
    expect(modern).toMatch(/Mcp-\* headers reach the upstream \(2026-07-28\)\s+\| pass/);
    expect(modern).toMatch(/re-issue after a drop \(2026-07-28\)\s+\| pass/);
  }, 150_000);

  test.each([
    [['--eras', 'all', '--client-era', 'modern'], /--eras all runs every combination/],
    [['--client-era', 'modern', '--client-transport', 'stdio'], /--client-era modern needs --client-transport http/],
    [
      ['--upstream-era', 'modern', '--upstream-transport', 'stdio'],
      /--upstream-era modern needs --upstream-transport http/,
    ],
    [
      ['--eras', 'all', '--json', 'x.json'],
      /--eras all prints one table per combination and writes no report file; got --json/,
    ],
    [['--client-era', 'future'], /Invalid --client-era "future": expected one of legacy, modern/],
  ])(
    '%j is a usage error',
    async (args, message) => {
      const result = await runInProcess(['check', ...gateway, ...args]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/\[mcp-golden\]/);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe('');
    },
    30_000,
  );
});
