import { readFile } from 'node:fs/promises';
import { GoldenError } from '../errors.js';
import { memberOf } from '../transcript/json-object.js';
import { checkCommand } from './check-command.js';
import { type CommandSpec, formatUsage, parseCommandArgs, suggest } from './command-spec.js';
import { demoCommand } from './demo-command.js';
import { inspectCommand } from './inspect-command.js';
import { lintCommand } from './lint-command.js';
import { recordCommand } from './record-command.js';
import { replayCommand } from './replay-command.js';
import { serveCommand } from './serve-command.js';
import { verifyCommand } from './verify-command.js';

/** Every command of the CLI, in `--help` order; the command table, help and suggestions come from these. */
export const COMMANDS: readonly CommandSpec[] = [
  serveCommand,
  recordCommand,
  replayCommand,
  checkCommand,
  verifyCommand,
  inspectCommand,
  lintCommand,
  demoCommand,
] as readonly CommandSpec[];

const BY_NAME = new Map(COMMANDS.map((spec) => [spec.name, spec]));

const USAGE = `Usage: mcp-golden <command> [options]

Commands:
${COMMANDS.map((spec) => `  ${spec.name.padEnd(9)} ${spec.summary}`).join('\n')}

Run \`mcp-golden <command> --help\` (or \`mcp-golden help <command>\`) for a command's options, \`mcp-golden --version\` for the version.`;

/** The version in the package.json that ships beside dist/ (two folders up from this file). */
async function packageVersion(): Promise<string> {
  const text = await readFile(new URL('../../package.json', import.meta.url), 'utf8');
  return String(memberOf(JSON.parse(text), 'version'));
}

/** The declared command called `name`, or a usage error that suggests the nearest one. */
function findCommand(name: string): CommandSpec {
  const spec = BY_NAME.get(name);
  if (spec) return spec;
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
    process.stdout.write(`${formatUsage(findCommand(rest[0]))}\n`);
    return 0;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${await packageVersion()}\n`);
    return 0;
  }
  const spec = findCommand(name);
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${formatUsage(spec)}\n`);
    return 0;
  }
  return spec.run(parseCommandArgs(spec, rest));
}
