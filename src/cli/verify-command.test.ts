import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess as runCli } from '../../test/support/in-process-cli.js';
import { RELEASE_SERVER, recordReleaseGoldens, releaseStdio } from '../../test/support/release-goldens.js';
import { startReleaseServer } from '../../test/support/release-server.mjs';
import { readGolden, writeGolden } from '../store/golden-file.js';

const stdio = releaseStdio;
const MASKS = ['--mask', 'iso-time', '--mask', 'uuid'];

/** The command lines of this process's descendants, however deep. */
function descendants(): string[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
    .flatMap((match) => (match ? [{ pid: match[1] ?? '', ppid: match[2] ?? '', args: match[3] ?? '' }] : []));
  const ours = new Set([String(process.pid)]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows) {
      if (ours.has(row.ppid) && !ours.has(row.pid)) {
        ours.add(row.pid);
        grew = true;
      }
    }
  }
  return rows.filter((row) => row.pid !== String(process.pid) && ours.has(row.pid)).map((row) => row.args);
}

let dir: string;
let goldens: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-verify-cli-'));
  goldens = join(dir, 'goldens');
  await recordReleaseGoldens(goldens, 3);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('mcp-golden verify', () => {
  it('passes a stdio server against its own goldens with masks, and reports one line per golden in order', async () => {
    const result = await runCli(['verify', '--stdio', stdio('v1'), ...MASKS, '--concurrency', '2', goldens]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^PASS +\S*goldens\/count\.jsonl +\d+ ms$/);
    expect(lines[1]).toMatch(/^PASS +\S*goldens\/report\.jsonl +\d+ ms$/);
    expect(lines.at(-1)).toMatch(/^PASS: 2 goldens, 2 passed, 0 failed in \d+\.\d s$/);
    // Every server child the command started is gone once it exits. Only this process's children count:
    // other test files run the same server in other workers at the same time.
    const left = descendants().filter((line) => line.includes(RELEASE_SERVER) && line.includes('--stdio v1'));
    expect(left).toEqual([]);
  });

  it('fails a changed text with the path, expected first, and --json holds the same verdict', async () => {
    const json = join(dir, 'verdict.json');
    const result = await runCli(['verify', '--stdio', stdio('text-changed'), ...MASKS, '--json', json, goldens]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('FAIL    ');
    expect(result.stdout).toContain(
      '  tools/call result $.result.content[0].text: "report on golden" != "Report on golden"',
    );
    expect(result.stdout).toMatch(/FAIL: 2 goldens, 1 passed, 1 failed in/);
    const report = JSON.parse(await readFile(json, 'utf8'));
    expect(report.pass).toBe(false);
    expect(report.goldens.map((g: { file: string; pass: boolean }) => [g.file.split('/').pop(), g.pass])).toEqual([
      ['count.jsonl', true],
      ['report.jsonl', false],
    ]);
    expect(report.goldens[1].differences).toEqual([
      {
        where: 'tools/call result',
        path: '$.result.content[0].text',
        expected: 'report on golden',
        actual: 'Report on golden',
        kind: 'changed',
      },
    ]);
    expect(report.goldens[1].volatile).toEqual({ mask: ['iso-time', 'uuid'] });
  });

  it('takes ignores and masks from the project config', async () => {
    const project = join(dir, 'project');
    await mkdir(join(project, 'goldens'), { recursive: true });
    await copyFile(join(goldens, 'report.jsonl'), join(project, 'goldens', 'report.jsonl'));
    await writeFile(
      join(project, 'mcp-golden.config.json'),
      JSON.stringify({ verify: { mask: ['uuid'], goldens: { report: { mask: ['iso-time'] } } } }),
    );
    const result = await runCli(['verify', '--stdio', stdio('v1'), 'goldens'], { cwd: project });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('PASS: 1 golden, 1 passed');
  });

  it('says which usage is wrong and exits 2, touching nothing', async () => {
    const unknown = await runCli(['verify', '--stdio', stdio('v1'), '--frobnicate', goldens]);
    expect([unknown.code, unknown.stderr]).toEqual([
      2,
      expect.stringContaining('[mcp-golden] Unknown option "--frobnicate" for `verify`.'),
    ]);
    const none = await runCli(['verify', '--stdio', stdio('v1'), join(dir, 'empty-dir-that-does-not-exist')]);
    expect([none.code, none.stderr]).toEqual([2, expect.stringContaining('[mcp-golden] No golden at')]);
    const badPath = await runCli(['verify', '--stdio', stdio('v1'), '--ignore', '$.[', goldens]);
    expect([badPath.code, badPath.stderr]).toEqual([
      2,
      expect.stringContaining('Invalid ignore path "$.[" on the command line'),
    ]);
    const bare = join(dir, 'bare');
    await mkdir(bare, { recursive: true });
    const golden = await readGolden(join(goldens, 'report.jsonl'));
    const cut = golden.frames.findIndex((f) => f.raw?.includes('"tools/call"'));
    await writeGolden(join(bare, 'handmade.jsonl'), { header: golden.header, frames: golden.frames.slice(0, cut) });
    const noScenario = await runCli(['verify', '--stdio', stdio('v1'), bare]);
    expect(noScenario.code).toBe(2);
    expect(noScenario.stderr).toMatch(
      /\[mcp-golden\] Cannot verify golden ".*handmade\.jsonl": it has no recorded scenario.*Re-record it with `npx mcp-golden record --stdio/,
    );
    for (const r of [unknown, none, badPath, noScenario]) expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('reports a missing binary and a refused connection by name, exits 1 and leaves every golden as it was', async () => {
    const before = await Promise.all((await readdir(goldens)).map((f) => readFile(join(goldens, f), 'utf8')));
    const missing = await runCli(['verify', '--stdio', 'no-such-mcp-server-binary --flag', '--update', goldens]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain('no-such-mcp-server-binary');
    const refused = await runCli(['verify', '--target', 'http://127.0.0.1:9/mcp', '--update', goldens]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('127.0.0.1:9');
    for (const r of [missing, refused]) {
      expect(r.stdout).toContain('FAIL: 2 goldens, 0 passed, 2 failed, 0 rewritten');
      expect(`${r.stdout}${r.stderr}`).not.toMatch(/\n\s+at /);
    }
    const after = await Promise.all((await readdir(goldens)).map((f) => readFile(join(goldens, f), 'utf8')));
    expect(after).toEqual(before);
  });

  it('never writes a secret of the target URL or headers', async () => {
    const server = await startReleaseServer('text-changed');
    try {
      const secretGoldens = join(dir, 'secret');
      await mkdir(secretGoldens, { recursive: true });
      await copyFile(join(goldens, 'report.jsonl'), join(secretGoldens, 'report.jsonl'));
      const json = join(dir, 'secret.json');
      const result = await runCli([
        'verify',
        '--target',
        `${server.url}?api_key=sk-SECRET-in-url-123`,
        '--header',
        'Authorization: Bearer sk-SECRET-in-header-456',
        ...MASKS,
        '--json',
        json,
        '--update',
        secretGoldens,
      ]);
      expect(result.stdout).toContain('UPDATED');
      const written = [
        result.stdout,
        result.stderr,
        await readFile(json, 'utf8'),
        await readFile(join(secretGoldens, 'report.jsonl'), 'utf8'),
      ];
      for (const text of written) expect(text).not.toMatch(/sk-SECRET/);
    } finally {
      await server.close();
    }
  });
});
