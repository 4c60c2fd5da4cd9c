import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { GoldenError } from '../errors.js';
import { readGolden } from '../store/golden-file.js';
import { describeLeftovers, findLeftoverTempFiles } from '../store/leftover-temp-files.js';
import { formatTimeline } from '../transcript/timeline.js';

export const INSPECT_USAGE = `Usage: mcp-golden inspect <golden.jsonl>...

Prints a timeline of each golden: HTTP heads, JSON-RPC messages and stream ends with their
offsets, then frame, exchange and progress-gap figures. Reports leftover temporary files of
interrupted writes in the goldens' directories.`;

/** `mcp-golden inspect`. */
export async function inspectCommand(argv: string[]): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, options: {} });
  if (positionals.length === 0) {
    throw new GoldenError('E_USAGE', 'Missing golden path. Usage: mcp-golden inspect goldens/progress-10x100.jsonl');
  }
  for (const dir of new Set(positionals.map((p) => dirname(p)))) {
    for (const line of describeLeftovers(await findLeftoverTempFiles(dir, 0))) {
      process.stderr.write(`[mcp-golden] ${line}\n`);
    }
  }
  for (const [index, path] of positionals.entries()) {
    const transcript = await readGolden(path);
    if (index > 0) process.stdout.write('\n');
    process.stdout.write(`${path}\n${formatTimeline(transcript).join('\n')}\n`);
  }
  return 0;
}
