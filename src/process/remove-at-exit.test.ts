import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { CLI } from '../../test/support/cli.js';

const tmps: string[] = [];
afterEach(async () => {
  for (const tmp of tmps.splice(0)) await rm(tmp, { recursive: true, force: true });
});

/** Runs `mcp-golden ...args` with its own TMPDIR, sending `signal` once stderr shows `when`; resolves with its exit code. */
async function runInterrupted(args: string[], signal: NodeJS.Signals, when: RegExp) {
  const tmp = await mkdtemp(join(tmpdir(), 'mcp-golden-test-tmp-'));
  tmps.push(tmp);
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, TMPDIR: tmp },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let inside: string[] = [];
  let sent = false;
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    if (when.test(stderr) && !sent) {
      sent = true;
      void readdir(tmp).then((names) => {
        inside = names;
        child.kill(signal);
      });
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  return { code, stderr, inside, after: await readdir(tmp) };
}

test('demo stopped by SIGINT while recording exits 130 and leaves no temporary folder', async () => {
  const run = await runInterrupted(['demo'], 'SIGINT', /recording scenario/);
  expect(run.inside).toEqual([expect.stringMatching(/^mcp-golden-demo-/)]);
  expect(run.code, run.stderr).toBe(130);
  expect(run.stderr).toContain('demo stopped by SIGINT');
  expect(run.after).toEqual([]);
});
