import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runInProcess } from '../../support/in-process-cli.js';
import { recordReleaseGoldens, releaseStdio } from '../../support/release-goldens.js';

const stdio = releaseStdio;
const MASKS = ['--mask', 'iso-time', '--mask', 'uuid'];
let dir: string;
let goldens: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-verify-drift-'));
  goldens = join(dir, 'goldens');
  await recordReleaseGoldens(goldens, 2);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const count = (text: string, part: string): number => text.split(part).length - 1;

describe('verify: tool-schema drift', () => {
  test('one compatible schema change is reported once for two goldens, and each golden refers to it', async () => {
    const result = await runInProcess(['verify', '--stdio', stdio('compatible'), ...MASKS, goldens]);
    expect(result.code).toBe(1);
    expect(count(result.stdout, 'new optional argument')).toBe(1);
    expect(count(result.stdout, 'tool "summary": new tool')).toBe(1);
    expect(result.stdout).toMatch(/seen by 2 goldens: \S*count\.jsonl, \S*report\.jsonl/);
    const lines = result.stdout.split('\n');
    for (const name of ['count', 'report']) {
      expect(lines.find((l) => l.includes(`${name}.jsonl  `))).toMatch(
        /^FAIL .*\(tool-schema changes, listed once below\)$/,
      );
      expect(lines).not.toContain(expect.stringMatching(new RegExp(`^FAIL \\S*${name}\\.jsonl$`)));
    }
  });

  test('--junit writes one test case per golden with the evidence as the failure; --sarif lists each schema change once', async () => {
    const [junit, sarif] = [join(dir, 'verify.xml'), join(dir, 'verify.sarif')];
    const result = await runInProcess([
      'verify',
      '--stdio',
      stdio('compatible'),
      ...MASKS,
      '--junit',
      junit,
      '--sarif',
      sarif,
      goldens,
    ]);
    expect(result.code).toBe(1);
    const xml = await readFile(junit, 'utf8');
    expect([...xml.matchAll(/<testcase name="([^"]*)"/g)].map((m) => m[1]?.split('/').pop())).toEqual([
      'count.jsonl',
      'report.jsonl',
    ]);
    expect(xml).toContain('tests="2" failures="2"');
    expect(
      count(
        xml,
        'tool-schema change: compatible: tool &#34;report&#34; argument &#34;format&#34;: new optional argument',
      ),
    ).toBe(4);
    const log = JSON.parse(await readFile(sarif, 'utf8'));
    const messages = log.runs[0].results.map((r: { message: { text: string } }) => r.message.text);
    expect(messages.filter((m: string) => m.includes('new optional argument'))).toHaveLength(1);
    expect(log.runs[0].results.map((r: { ruleId: string }) => r.ruleId)).toEqual([
      'verify/schema-compatible',
      'verify/schema-compatible',
    ]);
  });

  test('a removed tool is breaking drift, not a session error; --update says what it updated and what not', async () => {
    const before = await readFile(join(goldens, 'report.jsonl'), 'utf8');
    const check = await runInProcess(['verify', '--stdio', stdio('removed'), ...MASKS, goldens]);
    expect(check.code).toBe(1);
    expect(count(check.stdout, 'breaking: tool "report": tool removed')).toBe(1);
    expect(check.stdout).toMatch(/FAIL +\S*report\.jsonl .*the server no longer has tool "report"/);
    expect(check.stdout).not.toContain('Could not run the session');
    const update = await runInProcess(['verify', '--stdio', stdio('removed'), ...MASKS, '--update', goldens]);
    expect(update.stdout).toMatch(/Updated 1 golden \(review the change with `git diff` and commit\): \S*count\.jsonl/);
    expect(update.stdout).toMatch(
      /Not updated: \S*report\.jsonl: the server no longer has tool "report" \(breaking drift\)\. Delete the golden/,
    );
    expect(update.stdout).not.toContain('No session could be run');
    expect(await readFile(join(goldens, 'report.jsonl'), 'utf8')).toBe(before);
  });
});
