import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type ProjectJob, type ProjectRun, runShellInProject, startShellInProject } from './run-in-project.js';

// The code blocks of README.md and docs/*.md that a test runs, marked `test` on the fence:
//   ```ts test test/gateway.test.ts   a complete file, written at that path (relative to the project)
//   ```sh test                        commands, run one by one by /bin/sh in the project's folder
// A document's blocks run in the order they are written, so a later file block overwrites an earlier
// one (a changed server) and later commands see what earlier ones wrote. A command must exit 0, or the
// code its trailing comment names (`# exits 1`). A command ending in `&` (or `& name=$!`) runs in the
// background until `kill %N` (its job number, as a shell numbers jobs: the highest running one + 1),
// `kill $name`, or the document's end; the next command starts once it has printed its first line.

/** One command of a `sh test` block. */
export interface DocCommand {
  readonly text: string;
  /** The exit code it must end with. */
  readonly exit: number;
  /** 1-based line of the document where it starts. */
  readonly line: number;
}

/** A block marked `test`: a file to write, or commands to run. */
export type DocBlock =
  | { readonly kind: 'file'; readonly path: string; readonly text: string; readonly line: number }
  | { readonly kind: 'commands'; readonly commands: readonly DocCommand[]; readonly line: number };

const FENCE = /^```(\w+)((?: +\S+)*) *$/;

/**
 * Put before each command: `npx <bin>` of a bin installed in the project runs it as npx would, without
 * npm's own start (0.6 CPU-s a call); anything else goes to the real npx. The programs the guides run
 * (client.mjs) still start the real npx themselves.
 */
const NPX_LOCAL =
  'npx() { if [ -x "node_modules/.bin/$1" ]; then b=$1; shift; "node_modules/.bin/$b" "$@"; else command npx "$@"; fi; }\n';

/** The blocks marked `test` in a Markdown document, in order. */
export function readDocBlocks(markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] as string);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`line ${i + 1}: a code block that is never closed`);
    const words = (open[2] ?? '').trim().split(/ +/);
    const body = lines.slice(i + 1, end);
    if (words[0] === 'test') {
      const path = words[1];
      blocks.push(
        path
          ? { kind: 'file', path, text: `${body.join('\n')}\n`, line: i + 1 }
          : { kind: 'commands', commands: readCommands(body, i + 2), line: i + 1 },
      );
    }
    i = end;
  }
  return blocks;
}

/** Commands of a `sh test` block: continuation lines joined, comment and blank lines left out. */
function readCommands(body: readonly string[], firstLine: number): DocCommand[] {
  const commands: DocCommand[] = [];
  for (let i = 0; i < body.length; i++) {
    const line = i + firstLine;
    let text = body[i] as string;
    while (text.endsWith('\\') && i + 1 < body.length) {
      text = `${text.slice(0, -1).trimEnd()} ${(body[++i] as string).trim()}`;
    }
    if (text.trim() === '' || text.trim().startsWith('#')) continue;
    const exits = /#\s*exits (\d+)\s*$/.exec(text);
    commands.push({ text: text.trim(), exit: exits ? Number(exits[1]) : 0, line });
  }
  return commands;
}

/**
 * The file blocks that no later block runs: a test file with no later `vitest` command, another file
 * whose name no later command mentions. Each names its line, so a new marked block cannot go untested.
 */
export function unusedFiles(blocks: readonly DocBlock[]): string[] {
  return blocks.flatMap((block, index) => {
    if (block.kind !== 'file') return [];
    const later = blocks.slice(index + 1).flatMap((b) => (b.kind === 'commands' ? b.commands.map((c) => c.text) : []));
    const name = block.path.split('/').at(-1) as string;
    const used = /\.test\.[cm]?[jt]s$/.test(name)
      ? later.some((c) => /\bvitest\b/.test(c))
      : later.some((c) => c.includes(name));
    return used ? [] : [`line ${block.line}: ${block.path} is written but no later command runs it`];
  });
}

/** What running one document's blocks did, command by command. */
export interface DocRun {
  readonly command: string;
  readonly line: number;
  readonly run: ProjectRun;
}

/**
 * Runs a document's blocks in `dir` (a user's project folder), in order. Throws at the first command
 * that ends with another code than its block says, with the document's line and the command's output;
 * stops every background command before it returns or throws.
 */
export async function runDocBlocks(
  dir: string,
  blocks: readonly DocBlock[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<DocRun[]> {
  // Background commands as a shell numbers them: a new job takes the highest running number + 1.
  const jobs: { readonly number: number; readonly name?: string; readonly job: ProjectJob }[] = [];
  const runs: DocRun[] = [];
  const stop = async (line: number, text: string, index: number): Promise<void> => {
    if (index < 0) throw new Error(`line ${line}: \`${text}\` names no running background command`);
    const [{ job }] = jobs.splice(index, 1) as [(typeof jobs)[number]];
    runs.push({ command: text, line, run: await job.stop() });
  };
  try {
    for (const block of blocks) {
      if (block.kind === 'file') {
        await mkdir(dirname(join(dir, block.path)), { recursive: true });
        await writeFile(join(dir, block.path), block.text);
        continue;
      }
      for (const { text, exit, line } of block.commands) {
        const command = text.replace(/\s*#.*$/, '');
        const byNumber = /^kill %(\d+)$/.exec(command);
        const byName = /^kill \$(\w+)$/.exec(command);
        const background = /^(.*?)&(?:\s*(\w+)=\$!)?$/.exec(command);
        if (byNumber)
          await stop(
            line,
            text,
            jobs.findIndex((j) => j.number === Number(byNumber[1])),
          );
        else if (byName)
          await stop(
            line,
            text,
            jobs.findIndex((j) => j.name === byName[1]),
          );
        else if (background && !command.endsWith('&&')) {
          const job = await startShellInProject(dir, NPX_LOCAL + (background[1] as string).trim(), env, timeoutMs);
          const number = Math.max(0, ...jobs.map((j) => j.number)) + 1;
          jobs.push({ number, ...(background[2] !== undefined && { name: background[2] }), job });
        } else {
          const run = await runShellInProject(dir, NPX_LOCAL + command, env, timeoutMs);
          runs.push({ command: text, line, run });
          if (run.code !== exit) {
            throw new Error(
              `line ${line}: \`${text}\` exited ${run.code}, expected ${exit}. Its output:\n${run.output}`,
            );
          }
        }
      }
    }
  } finally {
    await Promise.all(jobs.map(({ job }) => job.stop()));
  }
  return runs;
}
