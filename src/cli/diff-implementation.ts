import { GoldenError, isGoldenError } from '../errors.js';
import { timelineHtml } from '../report/html-report.js';
import { readGolden, writeFileAtomic } from '../store/golden-file.js';
import { diffGoldens } from '../transcript/diff-goldens.js';
import { compileVolatile, mergeVolatile } from '../transcript/volatile.js';
import { type CliIo, pathIn, shownPath } from './cli-io.js';
import type { ParsedArgs } from './command-spec.js';
import { diffSections } from './html-reports.js';
import { loadProjectConfig } from './project-config.js';
import { verifyConfigOf } from './verify-config.js';

/**
 * What `mcp-golden diff` runs, loaded by its declaration (diff-command.ts) only once its arguments
 * parse: `--help` and usage errors load none of it.
 */
export async function runDiff(args: ParsedArgs<string>, io: CliIo): Promise<number> {
  const [first, second] = args.operands as [string, string];
  const flags = { ignore: args.strings('ignore'), mask: args.strings('mask') };
  compileVolatile(flags, 'on the command line');
  const config = verifyConfigOf(await loadProjectConfig(io.cwd));
  const ms = args.integer('tolerance-ms');
  const mode = args.string('timing') ?? (ms !== undefined ? 'tolerance' : 'order');
  if (ms !== undefined && mode !== 'tolerance') {
    throw new GoldenError(
      'E_USAGE',
      `--tolerance-ms applies to --timing tolerance, got --timing ${mode}. Drop --tolerance-ms or the --timing value.`,
    );
  }
  // A golden that cannot be read is bad input: a usage error, as verify has it.
  const read = (path: string) =>
    readGolden(pathIn(io, path)).catch((error: unknown) => {
      throw isGoldenError(error) ? new GoldenError('E_USAGE', error.message, { cause: error }) : error;
    });
  const [a, b] = await Promise.all([read(first), read(second)]);
  const diff = diffGoldens(a, b, {
    timing: mode === 'tolerance' ? { ...(ms !== undefined && { absMs: ms }) } : mode === 'ignore' ? 'ignore' : 'order',
    volatile: mergeVolatile(config.volatile, config.volatileFor(first), config.volatileFor(second), flags),
    ...(args.boolean('bytes') && { bytes: true }),
  });
  const names: [string, string] = [shownPath(io, pathIn(io, first)), shownPath(io, pathIn(io, second))];
  const headline = `${names[0]} and ${names[1]} ${diff.equal ? 'match' : 'differ'}: ${diff.comparison.headline}`;
  io.stdout.write(`[mcp-golden] ${headline}\n${diff.lines.map((line) => `${line}\n`).join('')}`);
  const html = args.string('html');
  if (html !== undefined) {
    const sections = diffSections(names, [a, b], {
      equal: diff.equal,
      headline: diff.comparison.headline,
      lines: diff.lines,
    });
    await writeFileAtomic(pathIn(io, html), timelineHtml('mcp-golden diff', headline, sections));
  }
  return diff.equal ? 0 : 1;
}
