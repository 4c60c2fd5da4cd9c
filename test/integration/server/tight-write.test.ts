import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, test } from 'vitest';
import { type RecordTarget, recordCall } from '../../../src/record/record-call.js';
import { referenceStdioCommand } from '../../../src/server/reference-stdio-command.js';
import { readToolCall } from '../../../src/transcript/read-calls.js';

const RUNS = 6;

/** For each of `RUNS` progress_tight calls: [progress values, whether the 3rd and the result shared one read]. */
async function tightCalls(target: RecordTarget): Promise<[unknown[], boolean][]> {
  const out: [unknown[], boolean][] = [];
  for (let run = 0; run < RUNS; run++) {
    const recording = await recordCall(target, {
      tool: 'progress_tight',
      arguments: { steps: 3, step_ms: 30 },
      progressToken: `tight-${run}`,
    });
    const view = readToolCall(recording);
    const last = view.progress.at(-1);
    const values = view.progress.map((p) => (p.message.params as { progress: unknown }).progress);
    out.push([values, last !== undefined && view.response !== undefined && last.read === view.response.read]);
  }
  return out;
}

const together = Array.from({ length: RUNS }, (): [unknown[], boolean] => [[1, 2, 3], true]);

describe('progress_tight: the final progress and the result leave the upstream in one write', () => {
  // The server runs in its own process, as the check's upstream does: in the test's process its
  // writes would always finish before the client's next read.
  test('over Streamable HTTP, in every run', async () => {
    const plain = referenceStdioCommand();
    const cli = plain.args[0] as string;
    const child = spawn(plain.command, [cli, 'serve', '--check-tools', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const [line] = (await once(child.stdout, 'data')) as [Buffer];
      const url = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(line.toString('utf8'))?.[0] as string;
      expect(await tightCalls(url)).toEqual(together);
    } finally {
      child.kill();
      await once(child, 'exit');
    }
  }, 30_000);

  test('over stdio, in every run', async () => {
    const plain = referenceStdioCommand();
    const target = { ...plain, args: [...plain.args, '--check-tools'] };
    expect(await tightCalls(target)).toEqual(together);
  }, 60_000);
});
