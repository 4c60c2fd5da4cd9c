import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readGolden, writeGolden } from '../../../src/store/golden-file.js';
import { runInProcess } from '../../support/in-process-cli.js';
import { startSdkV2Server } from '../../support/sdk-v2-server.js';
import { EVERYTHING, type RunningEverything, startEverythingHttp } from '../../support/server-everything.js';
import { useTempDir } from '../../support/temp-dir.js';

// `mcp-golden diff A B` compares as the matcher does: two recordings of one unchanged server are
// equal (ids, sessions, dates normalised; times within the tolerance), a changed text is not.
const GOLDENS = fileURLToPath(new URL('../../../goldens/', import.meta.url));
const temp = useTempDir('mcp-golden-diff-');

const diff = (...args: string[]) => runInProcess(['diff', ...args], { cwd: temp.dir });

/** Records `scenarios` into `dir/<out>` with `record` (in process), as a user does. */
async function record(out: string, target: string[], scenarios: readonly object[]): Promise<void> {
  await mkdir(join(temp.dir, out), { recursive: true });
  await writeFile(join(temp.dir, `${out}.scenarios.json`), JSON.stringify(scenarios));
  const result = await runInProcess(['record', ...target, '--scenarios', `${out}.scenarios.json`, '--out', out], {
    cwd: temp.dir,
  });
  expect(result.code, result.stderr).toBe(0);
}

describe('mcp-golden diff', () => {
  test('a golden and itself: exit 0, "match"; --html draws both on one page', async () => {
    const chatty = join(GOLDENS, 'chatty.jsonl');
    const result = await diff(chatty, chatty, '--html', 'same.html');
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/match: all \d+ frames match\n$/);
    const page = await readFile(join(temp.dir, 'same.html'), 'utf8');
    expect(page).toContain('tools/call chatty');
    expect(page.match(/chatty\.jsonl client/g)?.length).toBeGreaterThanOrEqual(2);
  });

  test('two fresh recordings of the reference server: exit 0 for each golden', async () => {
    for (const out of ['ref-1', 'ref-2']) {
      const result = await runInProcess(['record', 'chatty', 'progress-small', 'long_output-small', '--out', out], {
        cwd: temp.dir,
      });
      expect(result.code, result.stderr).toBe(0);
    }
    for (const name of ['chatty', 'progress-small', 'long_output-small']) {
      const result = await diff(`ref-1/${name}.jsonl`, `ref-2/${name}.jsonl`);
      expect(result.code, result.stdout).toBe(0);
    }
  });

  describe('server-everything (a server we did not write)', () => {
    let everything: RunningEverything;
    beforeAll(async () => {
      everything = await startEverythingHttp();
    });
    afterAll(async () => {
      await everything?.stop();
    });

    test('two fresh recordings over HTTP and over stdio: exit 0', async () => {
      const scenarios = [
        { name: 'echo', tool: 'echo', arguments: { message: 'hello, café ☕' } },
        { name: 'sum', tool: 'get-sum', arguments: { a: 2, b: 40 } },
      ];
      const stdio = ['--stdio', `"${process.execPath}" "${EVERYTHING}" stdio`];
      for (const out of ['every-1', 'every-2']) await record(out, ['--target', everything.url], scenarios);
      for (const out of ['every-stdio-1', 'every-stdio-2']) await record(out, stdio, scenarios);
      for (const [a, b] of [
        ['every-1', 'every-2'],
        ['every-stdio-1', 'every-stdio-2'],
      ]) {
        for (const { name } of scenarios) {
          const result = await diff(`${a}/${name}.jsonl`, `${b}/${name}.jsonl`);
          expect(result.code, result.stdout).toBe(0);
        }
      }
    });
  });

  test('two recordings with one changed text: exit 1 naming both texts; --ignore on that text: exit 0', async () => {
    const scenario = {
      name: 'confirm',
      tool: 'confirm',
      era: 'modern',
      answers: { 'elicitation/create': { action: 'accept', content: { ok: true } } },
    };
    const before = await startSdkV2Server({ legacy: 'reject' });
    try {
      await record('v2-before', ['--target', before.url], [scenario]);
    } finally {
      await before.close();
    }
    const after = await startSdkV2Server({ legacy: 'reject', confirmWord: 'approved' });
    try {
      await record('v2-after', ['--target', after.url], [scenario]);
    } finally {
      await after.close();
    }
    const result = await diff('v2-before/confirm.jsonl', 'v2-after/confirm.jsonl');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('[mcp-golden] v2-before/confirm.jsonl and v2-after/confirm.jsonl differ: frame ');
    expect(result.stdout).toContain(
      'block 0 differs at character 0: expected "confirmed: {"ok":true}", got "approved: {"ok":true}"',
    );
    expect(result.stdout).toContain('Changes:\n  ~ $.result.content[0].text: "confirmed: {\\"ok\\":true}" → "approved');
    expect(result.stdout).toMatch(/^Era: modern \(2026-07-28\)\.$/m);
    const ignored = await diff(
      'v2-before/confirm.jsonl',
      'v2-after/confirm.jsonl',
      '--ignore',
      '$.result.content[0].text',
    );
    expect(ignored.code, ignored.stdout).toBe(0);
    const masked = await diff('v2-before/confirm.jsonl', 'v2-after/confirm.jsonl', '--mask', '^(confirmed|approved)');
    expect(masked.code, masked.stdout).toBe(0);
  });

  test('frames moved beyond the tolerance: in order, exit 0; --timing tolerance: exit 1 with their times', async () => {
    const golden = await readGolden(join(GOLDENS, 'progress-10x100.jsonl'));
    // Every frame after the first call's request is 400 ms later: the call's answers arrive late.
    const call = golden.frames.findIndex((f) => f.raw?.includes('"tools/call"'));
    const late = { ...golden, frames: golden.frames.map((f, i) => (i > call ? { ...f, t: f.t + 400_000 } : f)) };
    await writeGolden(join(temp.dir, 'late.jsonl'), late);
    const a = join(GOLDENS, 'progress-10x100.jsonl');
    expect((await diff(a, 'late.jsonl')).code).toBe(0);
    const result = await diff(a, 'late.jsonl', '--timing', 'tolerance');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/arrived outside the timing tolerance\nTiming:\n {2}exchange \d+ /);
    const wide = await diff(a, 'late.jsonl', '--tolerance-ms', '1000');
    expect(wide.code, wide.stdout).toBe(0);
  });

  test('usage: one golden, a golden that is not there, --tolerance-ms without tolerance: exit 2', async () => {
    const one = await diff('a.jsonl');
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('needs <a.jsonl> <b.jsonl>; got only "a.jsonl"');
    const missing = await diff(join(GOLDENS, 'chatty.jsonl'), 'nope.jsonl');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^\[mcp-golden\] Golden ".*nope\.jsonl" does not exist/);
    const mixed = await diff('a.jsonl', 'b.jsonl', '--timing', 'order', '--tolerance-ms', '5');
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('--tolerance-ms applies to --timing tolerance');
  });
});
