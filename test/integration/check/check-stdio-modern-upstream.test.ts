import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { CheckReport } from '../../../src/check/vocabulary.js';
import { runInProcess } from '../../support/in-process-cli.js';

// `check --upstream-transport stdio --upstream-era modern|dual`: the upstream is `serve --stdio --era
// modern|dual` (2026-07-28 over stdio), started by the gateway; the gateway here bridges a 2026-07-28
// HTTP client to it, as mcp-proxy does in front of a 2026-07-28 stdio server.

const GATEWAY = fileURLToPath(new URL('../../support/modern-stdio-gateway.mjs', import.meta.url));
/** Runs the check in process; its exit code and the report it wrote with --json. */
async function check(mode: string, upstreamEra: string): Promise<{ code: number | null; report: CheckReport }> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-golden-check-stdio-modern-'));
  try {
    const json = join(dir, 'report.json');
    const only = ['progress tokens', 'cancel by closing', 'input_required', 'tasks:', 'Mcp-* headers'];
    const result = await runInProcess(
      [
        'check',
        '--gateway',
        `'${process.execPath}' '${GATEWAY}' ${mode} {port} {upstream}`,
        ...['--upstream-transport', 'stdio', '--upstream-era', upstreamEra, '--client-era', 'modern'],
        ...only.flatMap((o) => ['--only', o]),
        '--json',
        json,
      ],
      { timeoutMs: 200_000 },
    );
    return { code: result.code, report: JSON.parse(await readFile(json, 'utf8')) as CheckReport };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const table = (report: CheckReport): string[] => report.results.map((r) => `${r.verdict} | ${r.property}`);
const evidenceOf = (report: CheckReport, row: string): string =>
  report.results.find((r) => r.property.startsWith(row))?.evidence ?? '';

describe('check with a 2026-07-28 stdio upstream', () => {
  test.each(['modern', 'dual'])(
    '--upstream-era %s runs: a faithful bridge passes; cancel is notifications/cancelled over stdio; no Mcp-* headers to judge',
    async (era) => {
      const { code, report } = await check('faithful', era);
      expect(table(report)).toEqual([
        'pass | progress tokens (string)',
        'pass | progress tokens (number)',
        'pass | cancel by closing the stream (2026-07-28)',
        'n/a | Mcp-* headers reach the upstream (2026-07-28)',
        'pass | tasks: resultType "task" passes through (2026-07-28)',
        'pass | tasks: tasks/get and tasks/cancel reach the task with Mcp-Name (2026-07-28)',
        'pass | tasks: statuses pass through (2026-07-28)',
        'pass | tasks: no fabricated progress (2026-07-28)',
        'pass | input_required rounds pass through (2026-07-28)',
      ]);
      expect(evidenceOf(report, 'cancel by closing')).toMatch(
        /the upstream saw notifications\/cancelled with its own request id and stopped/,
      );
      expect(code).toBe(0);
    },
    240_000,
  );

  test('a bridge that drops the client hang-up fails the cancel row, naming the stdio upstream that was never cancelled', async () => {
    const { code, report } = await check('ignore-hang-up', 'modern');
    expect(table(report)).toContain('fail | cancel by closing the stream (2026-07-28)');
    expect(evidenceOf(report, 'cancel by closing')).toMatch(
      /the cancel never reached the upstream \(expected notifications\/cancelled with its own request id\)/,
    );
    expect(code).toBe(1);
  }, 240_000);

  test('a bridge that cannot fulfil input_required fails the rounds row, quoting the error the client got', async () => {
    const { report } = await check('no-input-rounds', 'modern');
    expect(table(report)).toContain('fail | input_required rounds pass through (2026-07-28)');
    expect(evidenceOf(report, 'input_required')).toMatch(
      /the call did not end with a complete result: it got error -32603 "Cannot fulfil input request 'confirm'/,
    );
    expect(table(report)).toContain('pass | cancel by closing the stream (2026-07-28)');
  }, 240_000);
});
