import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { readDocBlocks, runDocBlocks, unusedFiles } from './support/doc-blocks.js';

// README is a landing page and the guides in docs/ hold the rest: these checks keep the pages short,
// linked and free of repository-only paths. What the marked blocks do is run by test/e2e/packed-package.

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string): string => readFileSync(join(root, path), 'utf8');
const pages = ['README.md', ...readdirSync(join(root, 'docs')).map((name) => `docs/${name}`)].filter((p) =>
  p.endsWith('.md'),
);

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a page's headings (outside code blocks). */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  let inCode = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inCode = !inCode;
    const heading = /^#{1,6} (.+)$/.exec(line);
    if (!inCode && heading) found.add(anchor(heading[1] as string));
  }
  return found;
}

/** Every relative link of a page (outside code blocks) that names no file or heading there is. */
function brokenLinks(page: string): string[] {
  const text = read(page).replace(/```[\s\S]*?```/g, '');
  const broken: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (!target || /^[a-z]+:/.test(target)) continue;
    const [file, hash] = target.split('#') as [string, string | undefined];
    const path = file === '' ? page : relative(root, join(root, dirname(page), file));
    if (!existsSync(join(root, path))) broken.push(`${page}: ${target} (no file ${path})`);
    else if (hash && path.endsWith('.md') && !anchors(read(path)).has(hash)) {
      broken.push(`${page}: ${target} (no heading #${hash} in ${path})`);
    }
  }
  return broken;
}

test('README is a landing page: at most 400 lines, its contents first, a section and a guide per reader', () => {
  const readme = read('README.md');
  expect(readme.split('\n').length).toBeLessThanOrEqual(400);
  const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
  expect(headings[0]).toBe('Contents');
  for (const [section, guide] of [
    ['Server authors', 'docs/server-authors.md'],
    ['Client authors', 'docs/client-authors.md'],
    ['Gateway authors', 'docs/gateway-authors.md'],
    ['vitest users', 'docs/vitest.md'],
  ] as const) {
    const start = readme.indexOf(`## ${section}\n`);
    expect(start, section).toBeGreaterThan(0);
    const body = readme.slice(start, readme.indexOf('\n## ', start + 1));
    expect(body, section).toContain(`](${guide})`);
    expect(body, section).toMatch(/```sh\n|`import /);
  }
});

test('every relative link in README and docs/ names a file and a heading that exist', () => {
  expect(pages.flatMap(brokenLinks)).toEqual([]);
});

test('the link check finds a missing heading and a missing file', () => {
  expect(anchor('6. A change, and `verify --update`')).toBe('6-a-change-and-verify---update');
  expect(anchors('# A\n```sh\n# not a heading\n```\n## B c')).toEqual(new Set(['a', 'b-c']));
});

test('no page for users sends them to a file only a clone of this repository has', () => {
  // The glossary, architecture, benchmarks and the test guide describe the repository itself.
  const forContributors = ['docs/architecture.md', 'docs/benchmarks.md', 'docs/glossary.md', 'docs/testing.md'];
  for (const page of pages.filter((p) => !forContributors.includes(p))) {
    const text = read(page);
    expect(text, page).not.toMatch(/test\/support\/|inspector-cli\/build|<this repository's URL>/);
  }
});

test("the gateway guide's nginx script is the one the tests run", () => {
  const guide = read('docs/gateway-authors.md');
  const script = /```bash\n(#!\/usr\/bin\/env bash\n[\s\S]*?)```/.exec(guide)?.[1];
  expect(script).toBe(read('test/support/nginx-gateway.sh'));
});

test('marked blocks: files with their path, commands with their exit code, unused files named', () => {
  const doc = [
    '```js test server.mjs',
    'console.log(1)',
    '```',
    '```sh',
    'not marked',
    '```',
    '```sh test',
    '# a comment',
    'node server.mjs \\',
    '  --flag',
    'npx mcp-golden verify   # exits 1',
    '```',
    '```ts test test/a.test.ts',
    '```',
  ].join('\n');
  const blocks = readDocBlocks(doc);
  expect(blocks).toEqual([
    { kind: 'file', path: 'server.mjs', text: 'console.log(1)\n', line: 1 },
    {
      kind: 'commands',
      line: 7,
      commands: [
        { text: 'node server.mjs --flag', exit: 0, line: 9 },
        { text: 'npx mcp-golden verify   # exits 1', exit: 1, line: 11 },
      ],
    },
    { kind: 'file', path: 'test/a.test.ts', text: '\n', line: 13 },
  ]);
  expect(unusedFiles(blocks)).toEqual(['line 13: test/a.test.ts is written but no later command runs it']);
});

test('running marked blocks: files written, exit codes held to their comment, background commands stopped', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-golden-doc-blocks-'));
  try {
    const doc = (last: string) =>
      readDocBlocks(
        [
          '```sh test server.sh',
          'echo "listening"; exec sleep 30',
          '```',
          '```sh test',
          'sh server.sh &',
          'test -f server.sh',
          'false   # exits 1',
          'kill %1',
          last,
          '```',
        ].join('\n'),
      );
    const runs = await runDocBlocks(dir, doc('echo done'), {}, 20_000);
    expect(runs.map((r) => [r.command, r.run.code])).toEqual([
      ['test -f server.sh', 0],
      ['false   # exits 1', 1],
      ['kill %1', null],
      ['echo done', 0],
    ]);
    expect(runs[2]?.run.output).toBe('listening\n');
    await expect(runDocBlocks(dir, doc('exit 3'), {}, 20_000)).rejects.toThrow(
      'line 9: `exit 3` exited 3, expected 0.',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('background commands are numbered as a shell numbers jobs, and `cmd & name=$!` is stopped by `kill $name`', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-golden-doc-jobs-'));
  try {
    const doc = (...lines: string[]) =>
      readDocBlocks(
        ['```sh test server.sh', 'echo "up $1"; exec sleep 30', '```', '```sh test', ...lines, '```'].join('\n'),
      );
    const runs = await runDocBlocks(
      dir,
      doc(
        'sh server.sh a &',
        'kill %1',
        'sh server.sh b &',
        'kill %1',
        'sh server.sh c & server=$!   # named',
        'kill $server',
      ),
      {},
      20_000,
    );
    expect(runs.map((r) => [r.command, r.run.output])).toEqual([
      ['kill %1', 'up a\n'],
      ['kill %1', 'up b\n'],
      ['kill $server', 'up c\n'],
    ]);
    // After the first job ended, the second is %1 again: `kill %2` names no job, as in a shell.
    await expect(
      runDocBlocks(dir, doc('sh server.sh a &', 'kill %1', 'sh server.sh b &', 'kill %2'), {}, 20_000),
    ).rejects.toThrow('line 8: `kill %2` names no running background command');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a command line that leaves a process running (`cmd & echo $! > f`) ends with its shell, and stops what it left', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-golden-doc-left-'));
  try {
    const blocks = readDocBlocks(
      ['```sh test left.sh', 'exec sleep 30', '```', '```sh test', 'sh left.sh & echo $! > left.pid', '```'].join('\n'),
    );
    const started = Date.now();
    const [run] = await runDocBlocks(dir, blocks, {}, 20_000);
    expect(run?.run.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    const pid = Number(readFileSync(join(dir, 'left.pid'), 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Gone, or a zombie waiting for the container's init to reap it (it no longer runs).
    const state = existsSync(`/proc/${pid}/stat`)
      ? readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0]
      : 'gone';
    expect(['gone', 'Z', 'X']).toContain(state);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
