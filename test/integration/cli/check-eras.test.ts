import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { runInProcess } from '../../support/in-process-cli.js';

// A byte-streaming reverse proxy: faithful within an era, no bridge between eras.
const GATEWAY = fileURLToPath(new URL('../../support/faithful-gateway.mjs', import.meta.url));
const gateway = ['--gateway', `node ${GATEWAY} {upstream} {port}`];

describe('check --client-era, --upstream-era, --eras all', () => {
  test('--eras all prints one table per combination and an overall line; a plain proxy bridges no eras, which alone exits 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-golden-check-eras-'));
    const files = { json: join(dir, 'r.json'), junit: join(dir, 'r.xml'), html: join(dir, 'r.html') };
    const reports = Object.entries(files).flatMap(([flag, file]) => [`--${flag}`, file]);
    const only = ['--only', 'blocks', '--only', '2026-07-28'];
    const result = await runInProcess(['check', ...gateway, '--eras', 'all', ...only, ...reports], {
      timeoutMs: 150_000,
    });
    expect(result.code).toBe(0);
    const headings = [...result.stdout.matchAll(/^== client era (\w+), upstream era (\w+)$/gm)].map(
      (m) => `${m[1]}/${m[2]}`,
    );
    expect(headings).toEqual(['legacy/legacy', 'legacy/modern', 'modern/legacy', 'modern/modern', 'modern/dual']);
    // One finding per combination it does not bridge, not a FAIL per row.
    expect(result.stdout.match(/^finding: the gateway does not bridge/gm)).toHaveLength(2);
    expect(result.stdout).not.toMatch(/\| FAIL \|/);
    // One overall line ends the output, and it says what the exit code says.
    expect(result.stdout.trim().split('\n').at(-1)).toBe(
      'overall, 5 tables: 5 passed (2 of them do not bridge eras: client legacy → upstream modern; client modern → upstream legacy), 0 failed: the gateway forwards MCP streaming faithfully in every table',
    );
    const modern = result.stdout.split('== client era modern, upstream era modern')[1] ?? '';
    expect(modern).toMatch(/cancel by closing the stream \(2026-07-28\)\s+\| pass/);
    // Every table reaches every report file.
    const json = JSON.parse(await readFile(files.json, 'utf8'));
    expect(json.pass).toBe(true);
    expect(json.reports).toHaveLength(5);
    expect([...(await readFile(files.junit, 'utf8')).matchAll(/<testsuite name="[^"]*"/g)]).toHaveLength(5);
    expect(await readFile(files.html, 'utf8')).toContain('(client era modern, upstream era dual)');
    await rm(dir, { recursive: true, force: true });
    // Asked to, a gateway that does not bridge fails.
    const required = await runInProcess([
      'check',
      ...gateway,
      '--client-era',
      'modern',
      '--upstream-era',
      'legacy',
      '--only',
      'blocks',
      '--require-bridge',
    ]);
    expect(required.code).toBe(1);
    expect(required.stdout.trim().split('\n').at(-1)).toMatch(
      /the gateway does not bridge eras \(client modern → upstream legacy\) \(--require-bridge\)$/,
    );
  }, 200_000);

  test.each([
    [['--eras', 'all', '--client-era', 'modern'], /--eras all runs every combination/],
    [['--client-era', 'modern', '--client-transport', 'stdio'], /--client-era modern needs --client-transport http/],
    [
      ['--eras', 'all', '--upstream-transport', 'stdio'],
      /--eras all runs over HTTP legs only: .*--upstream-era modern\|dual works/,
    ],
    [['--eras', 'all', '--svg', 'x.svg'], /--eras all draws no single SVG timeline .*got --svg/],
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
