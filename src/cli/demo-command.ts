import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineCommand } from './command-spec.js';

/** `mcp-golden demo`: the newcomer's first run. */
export const demoCommand = defineCommand({
  name: 'demo',
  summary: 'record one scenario and print its timeline',
  operands: '[scenario]',
  maxOperands: 1,
  description: `Starts the reference server, records one scenario (default: progress-10x100) into a temporary
directory, prints its timeline, and cleans up.`,
  options: {},
  async run(args, io) {
    // The implementation loads here, after parsing: `--help` and usage errors load none of it.
    const [
      { removeAtExit, removeNow },
      { recordReferenceGoldens },
      { readGolden },
      { formatTimeline },
      { stopOnSignal },
    ] = await Promise.all([
      import('../process/remove-at-exit.js'),
      import('../reference-goldens.js'),
      import('../store/golden-file.js'),
      import('../transcript/timeline.js'),
      import('./stop-on-signal.js'),
    ]);
    const name = args.operands[0] ?? 'progress-10x100';
    // Ctrl-C exits 130 and still removes the temporary folder.
    const release = stopOnSignal('demo', io);
    const dir = await mkdtemp(join(tmpdir(), 'mcp-golden-demo-'));
    removeAtExit(dir);
    try {
      io.stderr.write(`[mcp-golden] recording scenario "${name}" from the live reference server...\n`);
      const { recorded } = await recordReferenceGoldens({ outDir: dir, names: [name] });
      for (const golden of recorded) {
        io.stdout.write(`${formatTimeline(await readGolden(golden.path)).join('\n')}\n`);
      }
      io.stderr.write('[mcp-golden] regenerate every golden with `npx mcp-golden record`; see README.md\n');
    } finally {
      await removeNow(dir);
      release();
    }
    return 0;
  },
});
