import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { runCli } from '../../support/cli.js';

// A byte-streaming reverse proxy: faithful within an era, no bridge between eras.
const GATEWAY = fileURLToPath(new URL('../../support/faithful-gateway.mjs', import.meta.url));
const gateway = ['--gateway', `node ${GATEWAY} {upstream} {port}`];

describe('check --client-era, --upstream-era, --eras all', () => {
  test('--eras all prints one table per combination: a plain proxy passes legacy/legacy and modern/modern, fails the mixed ones', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-golden-check-eras-'));
    const files = { json: join(dir, 'r.json'), junit: join(dir, 'r.xml'), html: join(dir, 'r.html') };
    const reports = Object.entries(files).flatMap(([flag, file]) => [`--${flag}`, file]);
    const result = await runCli(
      ['check', ...gateway, '--eras', 'all', '--only', 'blocks', '--only', '2026-07-28', ...reports],
      { timeoutMs: 120_000 },
    );
    expect(result.code).toBe(1);
    // One overall line ends the output, and it says what the exit code says.
    expect(result.stdout.trim().split('\n').at(-1)).toMatch(
      /^overall, 4 tables: 2 passed, 2 failed \(client legacy → upstream modern; client modern → upstream legacy\): the gateway breaks MCP streaming$/,
    );
    // Every table reaches every report file.
    const json = JSON.parse(await readFile(files.json, 'utf8'));
    expect(json.pass).toBe(false);
    expect(
      json.reports.map((r: { eras?: { client: string; upstream: string } }) => r.eras?.upstream ?? 'legacy'),
    ).toEqual(['legacy', 'modern', 'legacy', 'modern']);
    const xml = await readFile(files.junit, 'utf8');
    expect([...xml.matchAll(/<testsuite name="[^"]*"/g)]).toHaveLength(4);
    const html = await readFile(files.html, 'utf8');
    expect(html).toContain('(client era modern, upstream era legacy)');
    await rm(dir, { recursive: true, force: true });
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
    [['--eras', 'all', '--svg', 'x.svg'], /--eras all draws no single SVG timeline .*got --svg/],
    [['--client-era', 'future'], /Invalid --client-era "future": expected one of legacy, modern/],
  ])(
    '%j is a usage error',
    async (args, message) => {
      const result = await runCli(['check', ...gateway, ...args]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/\[mcp-golden\]/);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe('');
    },
    30_000,
  );
});
