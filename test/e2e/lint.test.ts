import 'mcp-golden/vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LintRuleId, type Recording, recordCall, type Scenario, writeGolden } from 'mcp-golden';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runInProcess } from '../support/in-process-cli.js';
import { startHttpLintServer } from '../support/lint-servers/http-lint-server.js';

const LINT_SERVER = fileURLToPath(new URL('../support/lint-servers/lint-server.mjs', import.meta.url));
const work: Scenario = { tool: 'work', arguments: {}, progressToken: 'lint-token' };
// Short steps keep this file fast; the heartbeat limit is scaled down to match (with room for a loaded machine).
const LINT_FLAGS = ['--max-silence-ms', '2500'];
const MATCHER_OPTIONS = { maxSilenceMs: 2500 };

interface Case {
  readonly name: string;
  readonly transport: 'stdio' | 'http';
  readonly flaw: string;
  readonly scenario: Scenario;
  /** The one rule the recording breaks; `undefined` for a server that follows them all. */
  readonly breaks: LintRuleId | undefined;
}

const stdio = (flaw: string, breaks: LintRuleId | undefined, scenario: Scenario = work, name = flaw): Case => ({
  name,
  transport: 'stdio',
  flaw,
  scenario,
  breaks,
});
const http = (flaw: string, breaks: LintRuleId | undefined, scenario: Scenario, name = flaw): Case => ({
  name,
  transport: 'http',
  flaw,
  scenario,
  breaks,
});

const CASES: readonly Case[] = [
  stdio('good', undefined, work, 'good-success'),
  stdio('good', undefined, { ...work, arguments: { fail: true } }, 'good-is-error'),
  http('good', undefined, { ...work, dropAfter: 2 }, 'good-http-resumed'),
  stdio('token-echo', 'token-echo', { ...work, progressToken: 7 }),
  stdio('no-token-no-progress', 'no-token-no-progress', { tool: 'work', arguments: {} }),
  stdio('monotonic', 'monotonic'),
  stdio('total-constant', 'total-constant'),
  stdio('final-progress', 'final-progress'),
  stdio('after-result', 'after-result'),
  stdio('rate', 'rate'),
  stdio('heartbeat', 'heartbeat'),
  http('event-ids', 'event-ids', work),
  http('resume-lossless', 'resume-lossless', { ...work, dropAfter: 2 }),
  stdio('partial-results', 'partial-results'),
  stdio('partial-results-good', undefined),
];

let dir: string;
const recordings = new Map<string, Recording>();
const goldenOf = (name: string): string => join(dir, `${name}.jsonl`);
type Linted = { code: number | null; stdout: string; rules: string[] };
const lints = new Map<string, Linted>();

async function record(c: Case): Promise<void> {
  if (c.transport === 'stdio') {
    const target = { command: process.execPath, args: [LINT_SERVER, c.flaw], label: `lint-server ${c.flaw}` };
    recordings.set(c.name, await recordCall(target, { ...c.scenario, name: c.name }));
  } else {
    const server = await startHttpLintServer(c.flaw);
    try {
      recordings.set(
        c.name,
        await recordCall({ url: server.url, label: `lint-server ${c.flaw}` }, { ...c.scenario, name: c.name }),
      );
    } finally {
      await server.close();
    }
  }
  await writeGolden(goldenOf(c.name), recordings.get(c.name) as Recording);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-lint-'));
  // Each server is recorded once; the recordings are independent, so they run side by side.
  await Promise.all(CASES.map(record));
  // So is linting them: one in-process run per golden, all at once.
  const linted = await Promise.all(CASES.map(async (c) => [c.name, await lint(c.name)] as const));
  for (const [name, result] of linted) lints.set(name, result);
}, 90_000);
afterAll(async () => {
  if (!process.env.KEEP_LINT) await rm(dir, { recursive: true, force: true });
});

async function lint(name: string): Promise<Linted> {
  const json = join(dir, `${name}.report.json`);
  const result = await runInProcess(['lint', goldenOf(name), '--json', json, ...LINT_FLAGS]);
  const report = JSON.parse(await readFile(json, 'utf8')) as { goldens: { violations: { rule: string }[] }[] };
  return { ...result, rules: [...new Set(report.goldens.flatMap((g) => g.violations.map((v) => v.rule)))] };
}

describe('mcp-golden lint on small SDK servers', () => {
  test.each(CASES.filter((c) => c.breaks !== undefined).map((c) => [c.name, c] as const))(
    'a server that breaks only %s exits 1 naming exactly that rule',
    async (_, c) => {
      const { code, stdout, rules } = lints.get(c.name) as Linted;
      expect(rules).toEqual([c.breaks]);
      expect(code).toBe(1);
      expect(stdout).toContain(` ${c.breaks}: `);
      expect(stdout).toMatch(/expected .+; got .+/);
      expect(stdout).toContain('fix: ');
      // The matcher fails with the same words as the CLI (the CLI prefixes the golden's path).
      const headline = stdout.split('\n').find((l) => l.includes(` ${c.breaks}: `)) ?? '';
      const recording = recordings.get(c.name) as Recording;
      expect(() => expect(recording).toFollowProgressContract(MATCHER_OPTIONS)).toThrow(
        headline.slice(headline.indexOf(' ') + 1),
      );
    },
  );

  test.each(CASES.filter((c) => c.breaks === undefined).map((c) => [c.name, c] as const))(
    'a server that follows every rule lints clean (%s)',
    async (_, c) => {
      const { code, stdout, rules } = lints.get(c.name) as Linted;
      expect(rules).toEqual([]);
      expect(code).toBe(0);
      expect(stdout).toContain('ok (');
      expect(recordings.get(c.name)).toFollowProgressContract(MATCHER_OPTIONS);
    },
  );

  test('the error path is recorded: a final notification with progress == total, then isError', () => {
    const recording = recordings.get('good-is-error') as Recording;
    const last = recording.outcome.progress.at(-1)?.params as { progress: number; total: number };
    expect(last.progress).toBe(last.total);
    expect((recording.outcome.response?.result as { isError?: boolean } | undefined)?.isError).toBe(true);
  });

  test('a resumed recording replays a batch that the rate rule does not count as a burst', () => {
    expect(recordings.get('good-http-resumed')?.outcome.resumed).toBe(true);
    expect(recordings.get('resume-lossless')?.outcome.resumed).toBe(true);
  });

  test('rules switch off per run (--off) and per project (package.json), and bad usage exits 2', async () => {
    const off = await runInProcess(['lint', goldenOf('monotonic'), '--off', 'monotonic', ...LINT_FLAGS]);
    expect(off.code).toBe(0);
    expect(off.stdout).toContain('monotonic off: switched off');
    const project = join(dir, 'project');
    await rm(project, { recursive: true, force: true });
    await mkdir(project);
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ 'mcp-golden': { lint: { rules: { rate: false } } } }),
    );
    const perProject = await runInProcess(['lint', goldenOf('rate'), ...LINT_FLAGS], { cwd: project });
    expect(perProject.code).toBe(0);
    expect(perProject.stdout).toContain('rate off: switched off');
    const unknown = await runInProcess(['lint', goldenOf('rate'), '--off', 'rates']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      '[mcp-golden] Unknown rule "rates" in --off. Did you mean rate? Expected one of: token-echo,',
    );
    const missing = await runInProcess(['lint']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Missing golden path');
    const absent = await runInProcess(['lint', join(dir, 'absent.jsonl')]);
    expect(absent.code).toBe(2);
    expect(absent.stderr).toMatch(/^\[mcp-golden\] Golden ".*absent\.jsonl" does not exist\./);
  });

  test('inspect shows experimental partial results', async () => {
    const { code, stdout } = await runInProcess(['inspect', goldenOf('partial-results')]);
    expect(code).toBe(0);
    expect(stdout).toContain('partial result (experimental): 1 block "alpha"');
  });
});
