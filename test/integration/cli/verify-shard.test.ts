import { type ChildProcess, spawn } from 'node:child_process';
import { copyFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordCall } from '../../../src/record/record-call.js';
import { writeGolden } from '../../../src/store/golden-file.js';
import { runInProcess } from '../../support/in-process-cli.js';
import { RELEASE_SERVER } from '../../support/release-goldens.js';

// verify --shard i/n on three "runners" (in process, one after another) against the release server
// over HTTP (one process for the whole file, each release on a port of its own), and merge-reports
// joining what they wrote, compared with one unsharded run.

const MASKS = ['--mask', 'iso-time', '--mask', 'uuid'];
const TOPICS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
const SHARDS = [1, 2, 3];
const RELEASES = ['v1', 'text-changed', 'compatible'] as const;
let project: string;
/**
 * The release server, a process of its own: its progress steps (80 ms apart) must not wait on this
 * test's event loop, or a loaded worker would deliver them with the result and verify would say
 * progress no longer streams. The count golden has five steps, not two, for the same reason: its
 * reads stall behind a loaded worker's event loop too, and a stall has to last the whole call
 * (~400 ms, not ~160 ms, seen once in four loaded runs) to bunch every notification with the result.
 */
let server: ChildProcess;
const urls = new Map<string, string>();

const cli = (args: string[], cwd = project) => runInProcess(args, { cwd });
const urlOf = (release: (typeof RELEASES)[number]): string => urls.get(release) as string;
const verify = (release: (typeof RELEASES)[number], args: string[]) =>
  cli(['verify', '--target', urlOf(release), ...MASKS, ...args]);
const at = (name: string): string => join(project, name);
const text = (name: string): Promise<string> => readFile(at(name), 'utf8');
const json = async (name: string) => JSON.parse(await text(name));
/** The JUnit test cases of a report: golden names, in order. */
const cases = async (name: string): Promise<string[]> =>
  [...(await text(name)).matchAll(/<testcase name="([^"]*)"/g)].map((m) => m[1] as string);
/** An HTML page without the times a run measured (`312 ms`, `1.2 s`). */
const untimed = (html: string): string => html.replace(/\b\d+(?:\.\d+)? ?m?s\b/g, '<time>');
/** A verify or lint JSON report without its times. */
const withoutTimes = (report: { summary?: object; goldens: object[] }) =>
  JSON.parse(JSON.stringify(report, (key, value) => (key === 'ms' ? 0 : value)));

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'mcp-golden-shard-'));
  server = spawn(process.execPath, [RELEASE_SERVER, '--http', ...RELEASES], { stdio: ['ignore', 'pipe', 'inherit'] });
  for await (const line of createInterface({ input: server.stdout as NodeJS.ReadableStream })) {
    const [release, url] = line.split(' ');
    urls.set(release as string, url as string);
    if (urls.size === RELEASES.length) break;
  }
  expect([...urls.keys()]).toEqual([...RELEASES]);
  const target = { url: urlOf('v1'), label: 'release-server v1' };
  for (const topic of TOPICS) {
    const scenario = { name: `report-${topic}`, tool: 'report', arguments: { topic } };
    await writeGolden(at(`goldens/report-${topic}.jsonl`), await recordCall(target, scenario));
  }
  const count = { name: 'count-5', tool: 'count', arguments: { steps: 5 }, progressToken: 7 };
  await writeGolden(at('goldens/count-5.jsonl'), await recordCall(target, count));
});

afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) {
    const gone = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGKILL');
    await gone;
  }
  await rm(project, { recursive: true, force: true });
});

describe('verify --shard i/n and merge-reports', () => {
  test('verify --shard k/3 judges disjoint sets whose union is every golden, each passing; the same shard twice judges the same set', async () => {
    const whole = await verify('v1', [
      ...['--json', 'all.json', '--junit', 'all.xml', '--sarif', 'all.sarif', '--html', 'all.html'],
      'goldens',
    ]);
    expect([whole.code, whole.stderr], whole.stdout).toEqual([0, '']);
    expect(whole.stdout).not.toContain('[mcp-golden] verify: shard');
    expect(whole.stdout).toMatch(/^PASS +goldens\/count-5\.jsonl +\d+ ms$/m);
    const all = await cases('all.xml');
    expect(all).toHaveLength(6);
    const parts: string[][] = [];
    for (const k of SHARDS) {
      const r = await verify('v1', [
        '--shard',
        `${k}/3`,
        '--json',
        `shard-${k}.json`,
        '--junit',
        `shard-${k}.xml`,
        'goldens',
      ]);
      expect([r.code, r.stderr]).toEqual([0, '']);
      parts.push(await cases(`shard-${k}.xml`));
      expect(r.stdout).toContain(`[mcp-golden] verify: shard ${k}/3: ${parts[k - 1]?.length} of the 6 goldens given\n`);
      expect(r.stdout).toMatch(
        new RegExp(`PASS: ${parts[k - 1]?.length} goldens?, ${parts[k - 1]?.length} passed, 0 failed`),
      );
    }
    // These six names fall in all three shards (the hash is pinned in shard-goldens.test.ts).
    for (const part of parts) expect(part.length).toBeGreaterThan(0);
    expect(parts.flat().sort()).toEqual([...all].sort());
    expect(new Set(parts.flat()).size).toBe(all.length);
    const again = await verify('v1', ['--shard', '1/3', '--junit', 'again.xml', 'goldens']);
    expect(again.code).toBe(0);
    expect(await cases('again.xml')).toEqual(parts[0]);
  }, 180_000);

  test('merge-reports of the three writes the unsharded report: one JUnit case per golden, the same JSON apart from times, the same SARIF; exit 0', async () => {
    const files = ['merged.json', 'merged.xml', 'merged.sarif', 'merged.html'];
    const r = await cli(
      ['merge-reports', ...SHARDS.map((k) => `shard-${k}.json`), '--json', files[0] as string].concat([
        '--junit',
        files[1] as string,
        '--sarif',
        files[2] as string,
        '--html',
        files[3] as string,
      ]),
    );
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/^\[mcp-golden\] merge-reports: 3 verify reports, shards 1\.\.3 of 3\n/);
    expect(r.stdout).toMatch(/PASS: 6 goldens, 6 passed, 0 failed in \d+\.\d s\n$/);
    expect(await cases('merged.xml')).toEqual(await cases('all.xml'));
    expect(withoutTimes(await json('merged.json'))).toEqual(withoutTimes(await json('all.json')));
    expect(await json('merged.sarif')).toEqual(await json('all.sarif'));
    const html = await text('merged.html');
    for (const name of await cases('all.xml')) expect(html).toContain(`${name}: pass`);
    expect(html).toContain('tools/call report (id');
    expect(untimed(html)).toBe(untimed(await text('all.html')));
  }, 180_000);

  test("with one shard's server changed, merge-reports exits 1 and its JUnit names the failing goldens", async () => {
    const parts = await Promise.all(SHARDS.map((k) => cases(`shard-${k}.xml`)));
    const changed = parts.findIndex((part) => part.some((name) => name.includes('report-'))) + 1;
    const r = await verify('text-changed', ['--shard', `${changed}/3`, '--json', 'changed.json', 'goldens']);
    expect(r.code).toBe(1);
    const reports = SHARDS.map((k) => (k === changed ? 'changed.json' : `shard-${k}.json`));
    const merged = await cli(['merge-reports', ...reports, '--junit', 'failing.xml', '--json', 'failing.json']);
    expect([merged.code, merged.stderr]).toEqual([1, '']);
    const failing = (parts[changed - 1] ?? []).filter((name) => name.includes('report-'));
    expect(merged.stdout).toContain(`FAIL: 6 goldens, ${6 - failing.length} passed, ${failing.length} failed`);
    const xml = await text('failing.xml');
    expect(xml).toContain(`tests="6" failures="${failing.length}"`);
    for (const name of failing) {
      expect(xml).toMatch(
        new RegExp(
          `<testcase name="${name}"[^>]*>\\s*<failure message="tools/call result \\$\\.result\\.content\\[0\\]\\.text`,
        ),
      );
    }
    expect((await json('failing.json')).goldens.filter((g: { pass: boolean }) => !g.pass)).toHaveLength(failing.length);
    // merge-reports has no --update: what to do next names the shards' verify.
    expect(merged.stdout).not.toContain('same command');
    expect(merged.stdout).toContain("run each failing shard's verify command again with --update");
  }, 180_000);

  test("--html draws each golden from the report's path in the checkout merge-reports runs in; a golden not there is an error naming it", async () => {
    // The report job's checkout: another directory, the reports downloaded into reports/.
    await cp(at('goldens'), at('ci-checkout/goldens'), { recursive: true });
    await mkdir(at('bare'));
    for (const k of SHARDS) {
      await cp(at(`shard-${k}.json`), at(`ci-checkout/reports/shard-${k}.json`));
      await cp(at(`shard-${k}.json`), at(`bare/reports/shard-${k}.json`));
    }
    const reports = SHARDS.map((k) => `reports/shard-${k}.json`);
    const checkout = await cli(['merge-reports', ...reports, '--html', 'merged.html'], at('ci-checkout'));
    expect([checkout.code, checkout.stderr]).toEqual([0, '']);
    const html = await text('ci-checkout/merged.html');
    for (const name of await cases('all.xml')) expect(html).toContain(`${name}: pass`);
    expect(html).toContain('tools/call report (id');
    expect(html).toContain('tools/call count (id');
    const bare = await cli(['merge-reports', ...reports, '--json', 'm.json', '--html', 'm.html'], at('bare'));
    expect([bare.code, bare.stdout]).toEqual([2, '']);
    expect(bare.stderr).toMatch(
      /^\[mcp-golden\] Cannot read golden "goldens\/[a-z0-9-]+\.jsonl" \(verified in "reports\/shard-\d\.json"\) for --html, which draws each golden's calls: there is no file ".*\/bare\/goldens\/[a-z0-9-]+\.jsonl"\. Run merge-reports in the checkout the shards verified, or drop --html\.\n$/,
    );
    // Nothing is written: a page without the goldens would pass for a whole one.
    await expect(readFile(at('bare/m.html'))).rejects.toThrow(/ENOENT/);
    await expect(readFile(at('bare/m.json'))).rejects.toThrow(/ENOENT/);
    const without = await cli(['merge-reports', ...reports, '--junit', 'm.xml'], at('bare'));
    expect([without.code, without.stderr]).toEqual([0, '']);
    expect(await cases('bare/m.xml')).toEqual(await cases('all.xml'));
  }, 180_000);

  test('tool-schema drift seen in every shard is listed once, as in an unsharded run', async () => {
    const whole = await verify('compatible', ['--json', 'drift-all.json', '--sarif', 'drift-all.sarif', 'goldens']);
    expect(whole.code).toBe(1);
    for (const k of SHARDS) {
      expect((await verify('compatible', ['--shard', `${k}/3`, '--json', `drift-${k}.json`, 'goldens'])).code).toBe(1);
    }
    const r = await cli([
      'merge-reports',
      ...SHARDS.map((k) => `drift-${k}.json`),
      '--json',
      'drift.json',
      '--sarif',
      'drift.sarif',
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout.split('tool "summary": new tool')).toHaveLength(2);
    expect(r.stdout).toContain('seen by 6 goldens: goldens/count-5.jsonl, goldens/report-alpha.jsonl,');
    const merged = await json('drift.json');
    expect(merged.schemaChanges.map((c: { goldens: string[] }) => c.goldens.length)).toEqual([6, 6]);
    expect(withoutTimes(merged)).toEqual(withoutTimes(await json('drift-all.json')));
    expect(await json('drift.sarif')).toEqual(await json('drift-all.sarif'));
  }, 180_000);

  test('merging two of the three shards is an error naming the missing one; so are a shard twice, a lint report among them and another format version', async () => {
    const two = await cli(['merge-reports', 'shard-1.json', 'shard-3.json', '--junit', 'two.xml']);
    expect(two.code).toBe(2);
    expect(two.stderr).toBe(
      '[mcp-golden] Missing shard 2/3: the reports given are shard 1/3 ("shard-1.json"), shard 3/3 ("shard-3.json"). Add the report of shard 2/3 (a runner that failed to upload it must run again).\n',
    );
    await expect(readFile(at('two.xml'))).rejects.toThrow(/ENOENT/);
    const twice = await cli(['merge-reports', 'shard-1.json', 'shard-2.json', 'shard-3.json', 'changed.json']);
    expect([twice.code, twice.stderr]).toEqual([
      2,
      expect.stringMatching(/^\[mcp-golden\] Reports "shard-\d\.json" and "changed\.json" are both shard \d\/3/),
    ]);
    expect((await cli(['lint', '--shard', '2/3', '--json', 'lint-2.json', 'goldens'])).stderr).toBe('');
    const mixed = await cli(['merge-reports', 'shard-1.json', 'lint-2.json', 'shard-3.json']);
    expect([mixed.code, mixed.stderr]).toEqual([
      2,
      '[mcp-golden] Report "lint-2.json" is a lint report, but "shard-1.json" is a verify report: merge the reports of one command at a time.\n',
    ]);
    const newer = { ...(await json('shard-2.json')), format: 'mcp-golden-verify/2' };
    await writeFile(at('newer-2.json'), JSON.stringify(newer));
    const format = await cli(['merge-reports', 'shard-1.json', 'newer-2.json', 'shard-3.json']);
    expect([format.code, format.stderr]).toEqual([
      2,
      '[mcp-golden] Report "newer-2.json" has format "mcp-golden-verify/2": expected "mcp-golden-verify/1", which this mcp-golden merges. Write every shard\'s report with the same mcp-golden version as merge-reports.\n',
    ]);
    const absent = await cli(['merge-reports', 'shard-1.json', 'nowhere.json']);
    expect([absent.code, absent.stderr]).toEqual([
      2,
      expect.stringContaining('[mcp-golden] Cannot read report "nowhere.json": no such file.'),
    ]);
  }, 180_000);

  test('adding a golden moves no other golden between shards; a shard with no golden passes with a line saying so', async () => {
    // The shard choice happens before any session: a refused target judges every golden of a shard quickly.
    const shardsOf = async (tag: string): Promise<Map<string, number>> => {
      const found = new Map<string, number>();
      for (const k of SHARDS) {
        await cli([
          'verify',
          '--target',
          'http://127.0.0.1:9/mcp',
          '--shard',
          `${k}/3`,
          '--junit',
          `${tag}-${k}.xml`,
          'goldens',
        ]);
        for (const name of await cases(`${tag}-${k}.xml`)) found.set(name, k);
      }
      return found;
    };
    const before = await shardsOf('before');
    expect(before.size).toBe(6);
    await copyFile(at('goldens/report-alpha.jsonl'), at('goldens/added.jsonl'));
    try {
      const after = await shardsOf('after');
      expect(after.size).toBe(7);
      for (const [name, k] of before) expect([name, after.get(name)]).toEqual([name, k]);
    } finally {
      await rm(at('goldens/added.jsonl'));
    }
    const alpha = before.get('goldens/report-alpha.jsonl') as number;
    const empty = await verify('v1', [
      '--shard',
      `${(alpha % 3) + 1}/3`,
      '--json',
      'empty.json',
      '--junit',
      'empty.xml',
      'goldens/report-alpha.jsonl',
    ]);
    expect([empty.code, empty.stderr]).toEqual([0, '']);
    expect(empty.stdout).toContain(
      `[mcp-golden] verify: shard ${(alpha % 3) + 1}/3 holds none of the 1 golden given; nothing to verify, so it passes.\n`,
    );
    expect(await cases('empty.xml')).toEqual([]);
    expect((await json('empty.json')).summary).toMatchObject({ goldens: 0, passed: 0, failed: 0 });
  }, 180_000);

  test('--shard 3/2, 0/2 and x/y are usage errors (exit 2) for verify and lint; 1/1 is the unsharded run', async () => {
    for (const command of ['verify', 'lint']) {
      for (const shard of ['3/2', '0/2', 'x/y']) {
        const target = command === 'verify' ? ['--target', urlOf('v1')] : [];
        const r = await cli([command, ...target, '--shard', shard, 'goldens']);
        expect([r.code, r.stderr]).toEqual([
          2,
          `[mcp-golden] Invalid --shard "${shard}": expected i/n with 1 <= i <= n, the part this runner takes of n parts (e.g. --shard 2/3 on the second of three CI runners).\n`,
        ]);
      }
    }
    const one = await verify('v1', ['--shard', '1/1', '--json', 'one.json', 'goldens']);
    expect(one.code).toBe(0);
    expect(withoutTimes(await json('one.json'))).toEqual(withoutTimes(await json('all.json')));
  }, 180_000);

  test('lint --shard k/2 covers every golden once, and merge-reports joins the lint reports as one run, violations listed', async () => {
    // The goldens, one of them edited so its progress goes 1 -> 0 -> 3: a monotonic violation.
    await cp(at('goldens'), at('linted'), { recursive: true });
    const count = await text('linted/count-5.jsonl');
    const broken = count.replace('\\"progress\\":2,', '\\"progress\\":0,');
    expect(broken).not.toBe(count);
    await writeFile(at('linted/count-5.jsonl'), broken);
    const whole = await cli([
      'lint',
      '--json',
      'lint-all.json',
      '--junit',
      'lint-all.xml',
      '--sarif',
      'lint-all.sarif',
      'linted',
    ]);
    expect([whole.code, whole.stderr], whole.stdout).toEqual([1, '']);
    expect(whole.stdout).toMatch(
      /^linted\/count-5\.jsonl: \d+ violations? \(2 requests\)\nlinted\/count-5\.jsonl:\d+ monotonic: progress went 1 → 0 /m,
    );
    const paths: string[] = [];
    for (const k of [1, 2]) {
      const r = await cli(['lint', '--shard', `${k}/2`, '--json', `lint-${k}-of-2.json`, 'linted']);
      const report = await json(`lint-${k}-of-2.json`);
      expect([r.code, r.stderr], r.stdout).toEqual([report.violations > 0 ? 1 : 0, '']);
      paths.push(...report.goldens.map((g: { path: string }) => g.path));
    }
    const all = (await json('lint-all.json')).goldens.map((g: { path: string }) => g.path);
    expect(all).toHaveLength(6);
    expect([...paths].sort()).toEqual([...all].sort());
    expect(new Set(paths).size).toBe(6);
    const merged = await cli([
      'merge-reports',
      'lint-2-of-2.json',
      'lint-1-of-2.json',
      '--json',
      'lint.json',
      '--junit',
      'lint.xml',
      '--sarif',
      'lint.sarif',
    ]);
    expect([merged.code, merged.stderr], merged.stdout).toEqual([1, '']);
    // What lint printed of the goldens that broke the contract, and its summary; not the goldens that are ok.
    const broke = whole.stdout
      .split('\n')
      .filter((line) => !/^\S+: ok \(\d+ requests?\)$/.test(line))
      .join('\n');
    expect(merged.stdout).toBe(`[mcp-golden] merge-reports: 2 lint reports, shards 1..2 of 2\n${broke}`);
    expect(await json('lint.json')).toEqual(await json('lint-all.json'));
    expect(await text('lint.xml')).toBe(await text('lint-all.xml'));
    expect(await json('lint.sarif')).toEqual(await json('lint-all.sarif'));
    await mkdir(at('elsewhere'));
    const away = await runInProcess(
      ['merge-reports', at('lint-1-of-2.json'), at('lint-2-of-2.json'), '--junit', 'x.xml'],
      {
        cwd: at('elsewhere'),
      },
    );
    expect([away.code, away.stderr]).toEqual([
      2,
      expect.stringMatching(
        /^\[mcp-golden\] Cannot read golden "linted\/[a-z0-9-]+\.jsonl" \(linted in ".*lint-\d-of-2\.json"\) for --junit, which lists each golden's calls: there is no file ".*\/elsewhere\/linted\/[a-z0-9-]+\.jsonl"\. Run merge-reports in the checkout the shards linted\.\n$/,
      ),
    ]);
    const html = await cli(['merge-reports', 'lint-1-of-2.json', 'lint-2-of-2.json', '--html', 'lint.html']);
    expect([html.code, html.stderr]).toEqual([
      2,
      expect.stringContaining('[mcp-golden] --html joins verify reports only'),
    ]);
  }, 180_000);
});
