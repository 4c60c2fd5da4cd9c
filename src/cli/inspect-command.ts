import { dirname } from 'node:path';
import { readGolden } from '../store/golden-file.js';
import { describeInterruptedWrites, findInterruptedWritesUnder } from '../store/interrupted-writes.js';
import { formatTimeline } from '../transcript/timeline.js';
import { defineCommand } from './command-spec.js';

/** `mcp-golden inspect`. */
export const inspectCommand = defineCommand({
  name: 'inspect',
  summary: "print a golden's timeline",
  operands: '<golden.jsonl>...',
  minOperands: 1,
  missing: 'golden path',
  description: `Prints a timeline of each golden: HTTP heads, JSON-RPC messages and stream ends with their
offsets, then frame, exchange and progress-gap figures. Reports the temporary files of
interrupted writes in the goldens' directories.`,
  options: {},
  async run(args) {
    const positionals = args.operands;
    for (const dir of new Set(positionals.map((p) => dirname(p)))) {
      for (const line of describeInterruptedWrites(await findInterruptedWritesUnder(dir, 0))) {
        process.stderr.write(`[mcp-golden] ${line}\n`);
      }
    }
    for (const [index, path] of positionals.entries()) {
      const transcript = await readGolden(path);
      if (index > 0) process.stdout.write('\n');
      process.stdout.write(`${path}\n${formatTimeline(transcript).join('\n')}\n`);
    }
    return 0;
  },
});
