import { dirname } from 'node:path';
import type { TimelineSection } from '../report/html-report.js';
import { pathIn, shownPath } from './cli-io.js';
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
  options: {
    html: {
      type: 'string',
      value: 'FILE',
      description:
        "write one self-contained HTML page: each golden's calls on a shared time axis, marked by the progress contract",
    },
  },
  async run(args, io) {
    // The implementation loads here, after parsing: `--help` and usage errors load none of it.
    const {
      lintTranscript,
      timelineHtml,
      readGolden,
      writeFileAtomic,
      describeInterruptedWrites,
      findInterruptedWritesUnder,
      formatTimeline,
      goldenSection,
      projectOptions,
    } = await import('./inspect-implementation.js');
    const positionals = args.operands.map((operand) => pathIn(io, operand));
    for (const dir of new Set(positionals.map((p) => dirname(p)))) {
      for (const line of describeInterruptedWrites(await findInterruptedWritesUnder(dir, 0))) {
        io.stderr.write(`[mcp-golden] ${line}\n`);
      }
    }
    const html = args.string('html');
    // The marks are lint's verdicts: judged with the project's lint options, as `mcp-golden lint` does.
    const lintOptions = html === undefined ? {} : await projectOptions(io.cwd);
    const sections: TimelineSection[] = [];
    for (const [index, path] of positionals.entries()) {
      const transcript = await readGolden(path);
      if (index > 0) io.stdout.write('\n');
      io.stdout.write(`${args.operands[index]}\n${formatTimeline(transcript).join('\n')}\n`);
      sections.push(goldenSection(shownPath(io, path), transcript, lintTranscript(transcript, lintOptions).violations));
    }
    if (html !== undefined) {
      const summary = `${positionals.length} golden${positionals.length === 1 ? '' : 's'}; each call marked by the progress contract (mcp-golden lint)`;
      await writeFileAtomic(pathIn(io, html), timelineHtml('mcp-golden inspect', summary, sections));
    }
    return 0;
  },
});
