import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readDocBlocks, runDocBlocks, unusedFiles } from '../support/doc-blocks.js';
import { linesOf, runClient } from '../support/run-client.js';
import { type ProjectRun, runInProject, runShellInProject } from '../support/run-in-project.js';

// A new user's project: the packed tarball installed into a fresh folder outside this repository
// (so nothing resolves to the repo's own node_modules), with its own package.json and strict
// tsconfig, no path mapping. The test file it runs is the one README marks `test`; the guides'
// marked blocks run in folders beside it that share its node_modules (see docs-in-project below).

const root = fileURLToPath(new URL('../..', import.meta.url));
const exec = promisify(execFile);
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
let project: string;
/** The consumer's type-check configs (registration by import or by setupFiles, under both module resolutions). */
let tsconfigs: string[];

/** The complete test file README.md marks `test` (a `ts test test/<name>.test.ts` block). */
async function readmeTestFile(): Promise<{ path: string; text: string }> {
  const blocks = readDocBlocks(await readFile(join(root, 'README.md'), 'utf8'));
  const file = blocks.find((b) => b.kind === 'file' && /^test\/[\w.-]+\.test\.ts$/.test(b.path));
  if (file?.kind !== 'file') throw new Error('README has no block marked `ts test test/<name>.test.ts`');
  return { path: file.path, text: file.text };
}

// A second file beside the README's: a test that can be made to fail before its assertion, and the
// matchers used without importing them (registered by setupFiles in the config), typed through the
// one-line reference the README documents.
const EXTRA_TEST = `import { recordCall } from 'mcp-golden'
import { startReferenceServer } from 'mcp-golden/server'
import { expect, test } from 'vitest'

test('may fail before its assertion', async () => {
  const server = await startReferenceServer()
  try {
    const stream = await recordCall(server.url, { tool: 'chatty', arguments: {} })
    if (process.env.FAIL_EARLY === '1') throw new Error('broken on purpose, before the assertion')
    await expect(stream).toMatchGolden()
    // @ts-expect-error toMatchGolden takes a name or options, not a number: the types are real
    const wrong = () => expect(stream).toMatchGolden(42)
    expect(typeof wrong).toBe('function')
  } finally {
    await server.close()
  }
})
`;

const DOOMED_TEST = `import 'mcp-golden/vitest'
import { recordCall } from 'mcp-golden'
import { startReferenceServer } from 'mcp-golden/server'
import { expect, test } from 'vitest'

test('soon deleted', async () => {
  const server = await startReferenceServer()
  const stream = await recordCall(server.url, { tool: 'long_output', arguments: { blocks: 1, chars: 16 } })
  await server.close()
  await expect(stream).toMatchGolden()
})
`;

const tsconfig = (moduleResolution: 'nodenext' | 'bundler', skipLibCheck: boolean, include: string[]): string =>
  JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: moduleResolution === 'nodenext' ? 'NodeNext' : 'ESNext',
      moduleResolution,
      strict: true,
      skipLibCheck,
      noEmit: true,
      types: ['node'],
    },
    include,
  });

function run(
  command: string,
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 170_000,
): Promise<ProjectRun> {
  return runInProject(project, join(project, 'node_modules', command), args, env, timeoutMs);
}

const vitest = (env: Record<string, string> = {}, ...args: string[]) => run('vitest/vitest.mjs', ['run', ...args], env);

/** Every file under the project's test folder, with its content: what a run may have changed. */
async function snapshotFiles(dir = join(project, 'test')): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[relative(project, path)] = await readFile(path, 'utf8');
  }
  return files;
}

const exists = (path: string): Promise<boolean> =>
  stat(join(project, path)).then(
    () => true,
    () => false,
  );

const GATEWAY = 'test/__goldens__/gateway';
const PROGRESS = `${GATEWAY}/progress-streams-through-the-gateway-1.jsonl`;
const CHATTY = `${GATEWAY}/blocks-and-unicode-arrive-intact-1.jsonl`;
const LONG = `${GATEWAY}/blocks-and-unicode-arrive-intact-2.jsonl`;
const EXTRA = 'test/__goldens__/extra/may-fail-before-its-assertion-1.jsonl';
const DOOMED = 'test/__goldens__/doomed/soon-deleted-1.jsonl';

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'mcp-golden-consumer-'));
  const packed = await exec('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], {
    cwd: root,
  });
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  const dev = pkg.devDependencies;
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'consumer',
      private: true,
      type: 'module',
      devDependencies: {
        'mcp-golden': `file:./${filename}`,
        vitest: dev.vitest,
        msw: dev.msw,
        typescript: dev.typescript,
        '@types/node': dev['@types/node'],
        // What the guides' programs import besides mcp-golden: the SDK clients and server, zod, fast-check.
        '@modelcontextprotocol/sdk': pkg.dependencies['@modelcontextprotocol/sdk'],
        '@modelcontextprotocol/client': dev['@modelcontextprotocol/client'],
        '@modelcontextprotocol/server': dev['@modelcontextprotocol/server'],
        zod: pkg.dependencies.zod,
        'fast-check': dev['fast-check'],
      },
    }),
  );
  await exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: project,
    timeout: 240_000,
  });
  const readme = await readmeTestFile();
  await mkdir(join(project, 'test'));
  await writeFile(join(project, readme.path), readme.text);
  await writeFile(join(project, 'test/extra.test.ts'), EXTRA_TEST);
  await writeFile(join(project, 'test/doomed.test.ts'), DOOMED_TEST);
  await writeFile(join(project, 'test/mcp-golden.d.ts'), '/// <reference types="mcp-golden/vitest" />\n');
  // testTimeout: a progress call through the gateway took over vitest's 5 s default on a loaded CI machine.
  await writeFile(
    join(project, 'vitest.config.ts'),
    "import { defineConfig } from 'vitest/config'\n\nexport default defineConfig({ test: { include: ['test/**/*.test.ts'], setupFiles: ['mcp-golden/vitest'], testTimeout: 30_000 } })\n",
  );
  // Registration by import (the README file) and by setupFiles + the reference line (extra.test.ts)
  // are checked apart: one import anywhere would type every file.
  const setupStyle = ['test/extra.test.ts', 'test/mcp-golden.d.ts'];
  const configs = {
    'tsconfig.import-nodenext.json': tsconfig('nodenext', false, [readme.path]),
    'tsconfig.import-bundler.json': tsconfig('bundler', true, [readme.path]),
    'tsconfig.setup-bundler.json': tsconfig('bundler', true, setupStyle),
    'tsconfig.setup-nodenext.json': tsconfig('nodenext', true, setupStyle),
  };
  for (const [name, text] of Object.entries(configs)) await writeFile(join(project, name), text);
  tsconfigs = Object.keys(configs);
}, 300_000);

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
  if (project) await rm(`${project}-guides`, { recursive: true, force: true });
});

// The file runs in three lanes at once (describes marked `concurrent`), each lane's tests one after
// another (`test.sequential`): the chain of vitest runs in the project, each seeing what the one before
// left; what ships and the type-check; the guides (below). They share nothing but the installed
// node_modules, which none writes. One part after another the file took 481 s alone on two cores
// (load 11): most of it waits on processes starting and loading, which overlap. More lanes than
// three put the guides' own tests (vitest's 5 s default) past their timeout on a loaded machine.
describe('the packed package in a fresh project', { timeout: 300_000, concurrent: true }, () => {
  describe('goldens across vitest runs, each run seeing what the one before left', () => {
    test.sequential('the first run writes the goldens; the second changes no file', async () => {
      const first = await vitest();
      expect(first.output).toMatch(/Tests\s+5 passed/);
      expect(first.code).toBe(0);
      for (const path of [PROGRESS, CHATTY, LONG, EXTRA, DOOMED]) expect(await exists(path)).toBe(true);
      const before = await snapshotFiles();
      const second = await vitest();
      expect(second.code).toBe(0);
      expect(second.output).not.toContain('[mcp-golden] wrote');
      expect(await snapshotFiles()).toEqual(before);
    });

    test.sequential('CI=true with a missing golden fails with the command to write it, and writes nothing', async () => {
      await rm(join(project, LONG));
      const before = await snapshotFiles();
      const { code, output } = await vitest({ CI: 'true' });
      expect(code).toBe(1);
      expect(output).toContain(`golden "${LONG}" is missing, and goldens are not written in CI.`);
      expect(output).toContain('Run `npx vitest run test/gateway.test.ts -u` locally and commit');
      expect(await snapshotFiles()).toEqual(before);
    });

    test.sequential('without -u, a corrupted golden is explained and a deleted test file has its goldens reported', async () => {
      await writeFile(join(project, LONG), '{"format":"mcp-golden/0"}\n');
      const progress = await readFile(join(project, PROGRESS), 'utf8');
      await writeFile(join(project, PROGRESS), progress.slice(0, progress.length / 2));
      await rm(join(project, 'test/doomed.test.ts'));
      const before = await snapshotFiles();
      const { code, output } = await vitest();
      expect(code).toBe(1);
      expect(output).toContain(`golden "${PROGRESS}" cannot be read:`);
      expect(output).toContain('the file is truncated');
      expect(output).toContain(
        `golden "${LONG}" cannot be read: it is in format mcp-golden/0, which this version of mcp-golden does not read`,
      );
      expect(output).toContain('Fix: run `npx vitest run test/gateway.test.ts -u` to rewrite it from this test');
      expect(output).not.toContain(root);
      expect(output).toContain(
        `obsolete golden ${DOOMED}: no test file doomed.test.* exists beside test/extra.test.ts`,
      );
      expect(await snapshotFiles()).toEqual(before);
    });

    test.sequential('-u repairs corrupt goldens and removes the deleted file’s, but keeps the golden of a failing test', async () => {
      const extra = await readFile(join(project, EXTRA), 'utf8');
      const { code, output } = await vitest({ FAIL_EARLY: '1' }, '-u');
      expect(code).toBe(1);
      expect(output).toContain('broken on purpose, before the assertion');
      expect(await readFile(join(project, EXTRA), 'utf8')).toBe(extra);
      expect(output).toContain(`rewrote unreadable golden ${PROGRESS}`);
      expect(output).toContain(`rewrote unreadable golden ${LONG}`);
      expect(output).toContain(`removed obsolete golden ${DOOMED}`);
      expect(await exists(DOOMED)).toBe(false);
      expect(await exists('test/__goldens__/doomed')).toBe(false);
      const after = await vitest({ CI: 'true' });
      expect(after.output).toMatch(/Tests\s+4 passed/);
      expect(after.code).toBe(0);
    });

    test.sequential('-u narrowed by -t rewrites nothing it did not run and calls nothing obsolete', async () => {
      const before = await snapshotFiles();
      const { code, output } = await vitest({}, '-u', '-t', 'blocks and unicode');
      expect(code).toBe(0);
      expect(output).toMatch(/Tests\s+1 passed/);
      expect(output).not.toContain('obsolete');
      expect(await snapshotFiles()).toEqual(before);
    });
  });

  describe('what ships, and the type-check', () => {
    // Only one compilation has skipLibCheck: false, which type-checks every declaration file it reaches
    // (~15 s of CPU, most of it msw's type-fest, the SDK and zod); the registration style does not change
    // that. The four are separate programs (one import anywhere would type every file), built by one
    // `tsc --build` one after another: it parses each declaration file once for all four (19 s of CPU
    // instead of 24 s for four `tsc -p`; four at once on two cores starved the timing judged in other
    // files). A type error in any of them fails the build and is printed with its file.
    test.sequential('tsc --build of the four configs: the matchers are typed (and a wrong call is an error)', async () => {
      const { code, output } = await run('typescript/bin/tsc', ['--build', ...tsconfigs], {}, 290_000);
      expect(output).toBe('');
      expect(code).toBe(0);
    });

    test.sequential('ships LICENSE, README and source maps for the bin only; `mcp-golden --version` prints the version', async () => {
      const shipped = join(project, 'node_modules/mcp-golden');
      expect(await readFile(join(shipped, 'LICENSE'), 'utf8')).toContain('the mcp-golden authors');
      expect(await stat(join(shipped, 'README.md')).then(() => true)).toBe(true);
      expect(await stat(join(shipped, 'docs/server-authors.md')).then(() => true)).toBe(true);
      const files = await readdir(join(shipped, 'dist'), { recursive: true });
      const maps = files.filter((f) => f.endsWith('.map'));
      expect(maps.length).toBeGreaterThan(0);
      expect(maps.filter((f) => !/^bin\/[\w-]+\.js\.map$/.test(f))).toEqual([]);
      // scripts/ does not ship: a `prepare` would run (and fail or warn) in every consumer's install.
      const shippedPkg = JSON.parse(await readFile(join(shipped, 'package.json'), 'utf8'));
      expect(shippedPkg.scripts.prepare).toBeUndefined();
      const { code, output } = await run('.bin/mcp-golden', ['--version']);
      expect({ code, output: output.trim() }).toEqual({ code: 0, output: pkg.version });
    });

    test.sequential('the bin is the bundle: `record` reads every module from dist/bin/, none from node_modules, and its scenario list from the package', async () => {
      const bin = join(project, 'node_modules/mcp-golden/dist/bin/');
      // A resolve hook prints each module the process loads (node's own left out), as src/cli/run-cli.test.ts does.
      await writeFile(
        join(project, 'load-hooks.mjs'),
        "import { writeSync } from 'node:fs'\nexport async function resolve(s, c, next) { const r = await next(s, c); if (!r.url.startsWith('node:')) writeSync(2, 'loaded ' + r.url + '\\n'); return r }\n",
      );
      await writeFile(
        join(project, 'log-loads.mjs'),
        "import { register } from 'node:module'\nregister('./load-hooks.mjs', import.meta.url)\n",
      );
      const { code, output } = await runShellInProject(
        project,
        'node --import ./log-loads.mjs node_modules/.bin/mcp-golden record chatty --out recorded',
        {},
        60_000,
      );
      expect(code, output).toBe(0);
      expect(await exists('recorded/chatty.jsonl')).toBe(true);
      const loaded = output.split('\n').filter((line) => line.startsWith('loaded '));
      // The SDK's server and client, zod and ajv are in the chunks the recording read.
      expect(loaded.length).toBeGreaterThan(5);
      expect(loaded.filter((line) => !line.startsWith(`loaded ${pathToFileURL(bin).href}`))).toEqual([]);
    });

    test.sequential('ships the SDK client wrappers; each, resolved by its export, runs a call against the packed `serve`', async () => {
      const shipped = await readdir(join(project, 'node_modules/mcp-golden/clients'));
      expect(shipped.sort()).toEqual(['contract.mjs', 'sdk-v1.mjs', 'sdk-v2.mjs']);
      const resolveIn = async (specifier: string): Promise<string> => {
        const { stdout } = await exec(
          process.execPath,
          ['--input-type=module', '-e', `console.log(import.meta.resolve('${specifier}'))`],
          {
            cwd: project,
          },
        );
        return fileURLToPath(stdout.trim());
      };
      const serve = spawn(join(project, 'node_modules/.bin/mcp-golden'), ['serve', '--port', '0'], {
        cwd: project,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let out = '';
          serve.stdout.setEncoding('utf8').on('data', (d: string) => {
            out += d;
            if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
          });
          serve.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
        });
        const calls = [{ name: 'progress', arguments: { steps: 2, step_ms: 10 }, progress: true }];
        const wrappers = [
          ['mcp-golden/clients/sdk-v1.mjs', '2025-11-25'],
          ['mcp-golden/clients/sdk-v2.mjs', '2025-11-25'],
          ['mcp-golden/clients/sdk-v2.mjs', '2026-07-28'],
        ] as const;
        for (const [specifier, era] of wrappers) {
          const file = await resolveIn(specifier);
          expect(file).toBe(join(project, 'node_modules', specifier));
          const run = await runClient([process.execPath, file], url, { era, calls });
          expect({ specifier, era, code: run.code, lines: linesOf(run, 0) }).toEqual({
            specifier,
            era,
            code: 0,
            lines: [
              { progress: 1, total: 2 },
              { progress: 2, total: 2 },
              { result: '{"steps":2,"notified":true,"done":true}' },
            ],
          });
        }
      } finally {
        serve.kill('SIGTERM');
      }
    });
  });
});

// Each guide's marked blocks, in order, in a project of its own: a folder beside the packed project
// (outside it, so its vitest config is not found) with its own package.json and the packed project's
// packages linked into a node_modules of its own, as if installed there (its own: vitest keeps its
// results cache in node_modules/.vite, and the packed project's runs go on at the same time). The guides
// run one after another (two name port 3000), beside the other two lanes of the file.
const guides = (await readdir(join(root, 'docs'))).filter((name) => name.endsWith('.md')).sort();
const guidesWithBlocks: string[] = [];
for (const name of guides) {
  if (readDocBlocks(await readFile(join(root, 'docs', name), 'utf8')).length > 0) guidesWithBlocks.push(name);
}

describe('every block the guides mark `test`, run as written', { timeout: 180_000, concurrent: true }, () => {
  test.sequential('the guides of the server authors, the client authors and the vitest users mark blocks', () => {
    expect(guidesWithBlocks).toEqual(expect.arrayContaining(['client-authors.md', 'server-authors.md', 'vitest.md']));
  });

  test.sequential.for(guidesWithBlocks)('docs/%s', async (name) => {
    const blocks = readDocBlocks(await readFile(join(root, 'docs', name), 'utf8'));
    expect(unusedFiles(blocks)).toEqual([]);
    const dir = join(`${project}-guides`, name.replace(/\.md$/, ''));
    await mkdir(join(dir, 'node_modules'), { recursive: true });
    await writeFile(join(dir, 'package.json'), '{ "name": "guide", "private": true, "type": "module" }\n');
    for (const entry of await readdir(join(project, 'node_modules'))) {
      if (entry !== '.vite') await symlink(join(project, 'node_modules', entry), join(dir, 'node_modules', entry));
    }
    const runs = await runDocBlocks(dir, blocks, {}, 120_000);
    expect(runs.length).toBeGreaterThan(0);
  });
});
