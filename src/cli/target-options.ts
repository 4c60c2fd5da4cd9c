import { GoldenError } from '../errors.js';
import type { RecordTarget } from '../record/record-call.js';
import type { OptionSpec, ParsedArgs } from './command-spec.js';

/** The declarations of `--stdio`, `--target` and `--header`: spread them into a command's `options`. */
export const TARGET_OPTIONS = {
  stdio: {
    type: 'string',
    value: "'<command line>'",
    description:
      'an MCP server to start on stdio (quoted as one argument; leading NAME=value words set its environment)',
  },
  target: {
    type: 'string',
    value: 'URL',
    description: "a running MCP server's Streamable HTTP endpoint (http:// or https://)",
  },
  header: {
    type: 'string',
    value: "'Name: value'",
    multiple: true,
    description: 'a request header for --target (e.g. "Authorization: Bearer $TOKEN")',
  },
} as const satisfies Record<string, OptionSpec>;

/** The raw values of {@link TARGET_OPTIONS}. */
export interface TargetOptionValues {
  readonly stdio?: string | undefined;
  readonly target?: string | undefined;
  readonly header?: readonly string[] | undefined;
}

/** A usage error that sends the user to the help of the command they ran. */
const usage = (problem: string, fix: string, command: string): GoldenError =>
  new GoldenError('E_USAGE', `${problem}. ${fix} Run \`mcp-golden ${command} --help\` for usage.`);

/**
 * Splits a command line into words as a POSIX shell would for a simple command: whitespace
 * separates, single quotes keep everything, double quotes keep everything but `\"` and `\\`,
 * a backslash outside quotes escapes the next character. No expansion happens here: the
 * user's shell already expanded `$VARS` before mcp-golden saw the line.
 */
export function splitCommandLine(line: string, command = 'record'): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw usage(`Invalid --stdio "${line}": a single quote is not closed`, 'Close the quote.', command);
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      inWord = true;
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) i++;
        word += line[i];
      }
      if (i >= line.length)
        throw usage(`Invalid --stdio "${line}": a double quote is not closed`, 'Close the quote.', command);
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

const ENV_WORD = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Parses `--stdio '<command line>'` into a stdio target: leading `NAME=value` words become its environment. */
export function parseStdioOption(line: string, cliCommand = 'record'): RecordTarget {
  const words = splitCommandLine(line, cliCommand);
  const env: Record<string, string> = {};
  while (words.length > 0 && ENV_WORD.test(words[0] as string)) {
    const [, name, value] = ENV_WORD.exec(words.shift() as string) as RegExpExecArray;
    env[name as string] = value as string;
  }
  const [command, ...args] = words;
  if (command === undefined) {
    throw usage(
      `Invalid --stdio "${line}": expected a command line that starts an MCP server on stdio, got no command`,
      `For example: --stdio 'npx -y @modelcontextprotocol/server-everything stdio'.`,
      cliCommand,
    );
  }
  return { command, args, ...(Object.keys(env).length > 0 && { env }) };
}

/** Parses one `--header 'Name: value'`. */
export function parseHeaderOption(text: string, command = 'record'): [name: string, value: string] {
  const colon = text.indexOf(':');
  const name = colon < 0 ? '' : text.slice(0, colon).trim();
  if (!HEADER_NAME.test(name)) {
    // Never echo the whole text: it is most likely a credential.
    throw usage(
      `Invalid --header: expected 'Name: value', got ${colon < 0 ? 'no ":"' : `the name "${name}"`}`,
      `Write it as --header 'Authorization: Bearer $TOKEN'.`,
      command,
    );
  }
  return [name, text.slice(colon + 1).trim()];
}

/** Parses `--target URL` with its `--header`s into an HTTP target. */
export function parseHttpTargetOption(url: string, headers: readonly string[] = [], command = 'record'): RecordTarget {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw usage(
      `Invalid --target "${parsed ? `${parsed.protocol}//${parsed.host}${parsed.pathname}` : url.replace(/[?#].*$/s, '')}": expected an http:// or https:// MCP endpoint URL`,
      'For example: --target http://127.0.0.1:3001/mcp.',
      command,
    );
  }
  const out: Record<string, string> = {};
  for (const header of headers) {
    const [name, value] = parseHeaderOption(header, command);
    out[name] = name in out ? `${out[name]}, ${value}` : value;
  }
  return { url, ...(headers.length > 0 && { headers: out }) };
}

/**
 * Turns `--stdio`, `--target` and `--header` into a target the recorder accepts, or `undefined`
 * when neither `--stdio` nor `--target` is given (the caller then picks its default target).
 * Contradictory or malformed options are `E_USAGE` errors that say how to fix them.
 *
 * @example
 * const args = parseCommandArgs(verifySpec, argv) // verifySpec.options spreads TARGET_OPTIONS
 * const target = parseTargetOptions(targetValues(args), 'verify') // RecordTarget | undefined
 */
export function parseTargetOptions(values: TargetOptionValues, command = 'record'): RecordTarget | undefined {
  const headers = values.header ?? [];
  if (values.stdio !== undefined && values.target !== undefined) {
    throw usage('Both --stdio and --target were given', 'Record one server at a time: keep one of them.', command);
  }
  if (values.stdio !== undefined) {
    if (headers.length > 0) {
      throw usage(
        '--header applies to --target (HTTP) only, but --stdio was given',
        'Pass credentials to a stdio server in its command line or environment instead.',
        command,
      );
    }
    return parseStdioOption(values.stdio, command);
  }
  if (values.target !== undefined) return parseHttpTargetOption(values.target, headers, command);
  if (headers.length > 0) {
    throw usage('--header needs --target', 'Add --target <url> of the server to use.', command);
  }
  return undefined;
}

/** The target options' values out of a parsed command line, for {@link parseTargetOptions}. */
export function targetValues(args: ParsedArgs<keyof typeof TARGET_OPTIONS>): TargetOptionValues {
  return { stdio: args.string('stdio'), target: args.string('target'), header: args.strings('header') };
}
