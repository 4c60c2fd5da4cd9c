import { readFile } from 'node:fs/promises';
import { GoldenError, isGoldenError, suggest } from '../errors.js';
import { memberOf } from '../transcript/json-object.js';
import { type CliIo, processIo } from './cli-io.js';
import { type CommandSpec, formatUsage, parseCommandArgs } from './command-spec.js';
import { listenError } from './listen-error.js';

/**
 * Every command of the CLI, in `--help` order, each loaded only when it runs: `serve --stdio`
 * (which a gateway may start once per session) and `lint` then load their own code, not the
 * recorder, the replayer and the check. Each module declares its command (name, options, run).
 */
const LOADERS: ReadonlyArray<readonly [string, () => Promise<CommandSpec>]> = [
  ['serve', async () => (await import('./serve-command.js')).serveCommand as CommandSpec],
  ['record', async () => (await import('./record-command.js')).recordCommand as CommandSpec],
  ['replay', async () => (await import('./replay-command.js')).replayCommand as CommandSpec],
  ['check', async () => (await import('./check-command.js')).checkCommand as CommandSpec],
  ['verify', async () => (await import('./verify-command.js')).verifyCommand as CommandSpec],
  ['diff', async () => (await import('./diff-command.js')).diffCommand as CommandSpec],
  ['inspect', async () => (await import('./inspect-command.js')).inspectCommand as CommandSpec],
  ['lint', async () => (await import('./lint-command.js')).lintCommand as CommandSpec],
  ['merge-reports', async () => (await import('./merge-reports-command.js')).mergeReportsCommand as CommandSpec],
  ['demo', async () => (await import('./demo-command.js')).demoCommand as CommandSpec],
];

const BY_NAME = new Map(LOADERS);

/** Every command's declaration, in `--help` order (loads them all). */
export async function loadCommands(): Promise<CommandSpec[]> {
  return Promise.all(LOADERS.map(([, load]) => load()));
}

async function usage(): Promise<string> {
  const commands = await loadCommands();
  const width = Math.max(...commands.map((spec) => spec.name.length));
  return `Usage: mcp-golden <command> [options]

Commands:
${commands.map((spec) => `  ${spec.name.padEnd(width)} ${spec.summary}`).join('\n')}

Run \`mcp-golden <command> --help\` (or \`mcp-golden help <command>\`) for a command's options, \`mcp-golden --version\` for the version.`;
}

/** The version in the package.json that ships beside dist/ (two folders up from this file). */
async function packageVersion(): Promise<string> {
  const text = await readFile(new URL('../../package.json', import.meta.url), 'utf8');
  return String(memberOf(JSON.parse(text), 'version'));
}

/** The declared command called `name`, or a usage error that suggests the nearest one. */
async function findCommand(name: string): Promise<CommandSpec> {
  const load = BY_NAME.get(name);
  if (load) return load();
  const names = [...BY_NAME.keys()];
  const near = suggest(name, names);
  throw new GoldenError(
    'E_USAGE',
    `Unknown command "${name}".${near ? ` Did you mean ${near}?` : ''} Expected one of: ${names.join(', ')}. Run \`mcp-golden --help\`.`,
  );
}

/**
 * Runs the CLI with `argv` (without node and script) and returns the exit code: 0 success, 1 a
 * failure or error, 2 a usage error (each error printed on `io.stderr` as one `[mcp-golden]` line).
 * Everything it reads and writes goes through `io`, so tests run commands in process.
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    if (isGoldenError(error)) {
      io.stderr.write(`[mcp-golden] ${error.message}\n`);
      return error.code === 'E_USAGE' ? 2 : 1;
    }
    io.stderr.write(
      `[mcp-golden] unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return 1;
  }
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === 'help' && rest[0] !== undefined) {
    io.stdout.write(`${formatUsage(await findCommand(rest[0]))}\n`);
    return 0;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(`${await usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${await packageVersion()}\n`);
    return 0;
  }
  const spec = await findCommand(name);
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(`${formatUsage(spec)}\n`);
    return 0;
  }
  const args = parseCommandArgs(spec, rest);
  try {
    return await spec.run(args, io);
  } catch (error) {
    throw listenError(error, spec, args) ?? error;
  }
}
