import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CliResult } from '../../support/cli.js';
import { runInProcess } from '../../support/in-process-cli.js';

// One check through a faithful gateway (a byte-streaming reverse proxy), four rows, every report.
const GATEWAY = fileURLToPath(new URL('../../support/faithful-gateway.mjs', import.meta.url));
let dir: string;
let result: CliResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-check-reports-'));
  result = await runInProcess([
    'check',
    '--gateway',
    `node ${GATEWAY} {upstream} {port}`,
    ...['--only', 'token', '--only', 'unicode'],
    ...['--junit', join(dir, 'check.xml'), '--json', join(dir, 'check.json')],
  ]);
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('check reports', () => {
  test('--junit writes one test case per row', async () => {
    expect(result.code).toBe(0);
    const rows = JSON.parse(await readFile(join(dir, 'check.json'), 'utf8')).results.map(
      (r: { property: string }) => r.property,
    );
    expect(rows.length).toBeGreaterThanOrEqual(4);
    const xml = await readFile(join(dir, 'check.xml'), 'utf8');
    expect([...xml.matchAll(/<testcase name="([^"]*)" classname="mcp-golden.check"/g)].map((m) => m[1])).toEqual(rows);
    expect(xml).toContain(`tests="${rows.length}" failures="0"`);
  });
});
