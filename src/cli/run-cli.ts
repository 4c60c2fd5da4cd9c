import { GoldenError } from '../errors.js';
import { CHECK_USAGE, checkCommand } from './check-command.js';
import { DEMO_USAGE, demoCommand } from './demo-command.js';
import { INSPECT_USAGE, inspectCommand } from './inspect-command.js';
import { LINT_USAGE, lintCommand } from './lint-command.js';
import { RECORD_USAGE, recordCommand } from './record-command.js';
import { REPLAY_USAGE, replayCommand } from './replay-command.js';
import { SERVE_USAGE, serveCommand } from './serve-command.js';

type Command = { summary: string; usage: string; run: (argv: string[]) => Promise<number> };

const COMMANDS: Record<string, Command> = {
  serve: { summary: 'run the reference streaming server (HTTP or stdio)', usage: SERVE_USAGE, run: serveCommand },
  record: { summary: 'regenerate goldens from the live reference server', usage: RECORD_USAGE, run: recordCommand },
  replay: { summary: 'serve goldens as a fake upstream (HTTP or stdio)', usage: REPLAY_USAGE, run: replayCommand },
  check: {
    summary: 'check whether a gateway forwards MCP streaming faithfully',
    usage: CHECK_USAGE,
    run: checkCommand,
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

Run \`mcp-golden <command> --help\` for a command's options.`;

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return name === undefined ? 2 : 0;
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
