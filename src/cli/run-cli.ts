import { readFile } from 'node:fs/promises';
import { GoldenError } from '../errors.js';
import { memberOf } from '../transcript/json-object.js';
import { type CommandSpec, formatUsage, parseCommandArgs, suggest } from './command-spec.js';
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
  ['inspect', async () => (await import('./inspect-command.js')).inspectCommand as CommandSpec],
  ['lint', async () => (await import('./lint-command.js')).lintCommand as CommandSpec],
  ['demo', async () => (await import('./demo-command.js')).demoCommand as CommandSpec],
];

const BY_NAME = new Map(LOADERS);

/** Every command's declaration, in `--help` order (loads them all). */
export async function loadCommands(): Promise<CommandSpec[]> {
  return Promise.all(LOADERS.map(([, load]) => load()));
}

async function usage(): Promise<string> {
  const commands = await loadCommands();
  return `Usage: mcp-golden <command> [options]

Commands:
${commands.map((spec) => `  ${spec.name.padEnd(9)} ${spec.summary}`).join('\n')}

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

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === 'help' && rest[0] !== undefined) {
    process.stdout.write(`${formatUsage(await findCommand(rest[0]))}\n`);
    return 0;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${await usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${await packageVersion()}\n`);
    return 0;
  }
  const spec = await findCommand(name);
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${formatUsage(spec)}\n`);
    return 0;
  }
  const args = parseCommandArgs(spec, rest);
  try {
    return await spec.run(args);
  } catch (error) {
    throw listenError(error, spec, args) ?? error;
  }
}
