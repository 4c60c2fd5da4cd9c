import { readFile } from 'node:fs/promises';
import { GoldenError } from '../errors.js';
import { CHECK_USAGE, checkCommand } from './check-command.js';
import { DEMO_USAGE, demoCommand } from './demo-command.js';
import { INSPECT_USAGE, inspectCommand } from './inspect-command.js';
import { LINT_USAGE, lintCommand } from './lint-command.js';
import { RECORD_USAGE, recordCommand } from './record-command.js';
import { REPLAY_USAGE, replayCommand } from './replay-command.js';
import { SERVE_USAGE, serveCommand } from './serve-command.js';
import { VERIFY_USAGE, verifyCommand } from './verify-command.js';

type Command = { summary: string; usage: string; run: (argv: string[]) => Promise<number> };

const COMMANDS: Record<string, Command> = {
  serve: { summary: 'run the reference streaming server (HTTP or stdio)', usage: SERVE_USAGE, run: serveCommand },
  record: {
    summary: 'record goldens from the reference server or your own (--stdio, --target)',
    usage: RECORD_USAGE,
    run: recordCommand,
  },
  replay: { summary: 'serve goldens as a fake upstream (HTTP or stdio)', usage: REPLAY_USAGE, run: replayCommand },
  check: {
    summary: 'check whether a gateway forwards MCP streaming faithfully',
    usage: CHECK_USAGE,
    run: checkCommand,
  },
  verify: {
    summary: "re-run each golden's session against a live server and report what changed",
    usage: VERIFY_USAGE,
    run: verifyCommand,
  },
  inspect: { summary: "print a golden's timeline", usage: INSPECT_USAGE, run: inspectCommand },
  lint: { summary: 'judge recorded servers against the progress contract', usage: LINT_USAGE, run: lintCommand },
  demo: { summary: 'record one scenario and print its timeline', usage: DEMO_USAGE, run: demoCommand },
};

const USAGE = `Usage: mcp-golden <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(9)} ${command.summary}`)
  .join('\n')}

Run \`mcp-golden <command> --help\` for a command's options, \`mcp-golden --version\` for the version.`;

/** The version in the package.json that ships beside dist/ (two folders up from this file). */
async function packageVersion(): Promise<string> {
  const text = await readFile(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${await packageVersion()}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    throw new GoldenError(
      'E_USAGE',
      `Unknown command "${name}". Expected one of: ${Object.keys(COMMANDS).join(', ')}. Run \`mcp-golden --help\`.`,
    );
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command.usage}\n`);
    return 0;
  }
  return command.run(rest);
}
