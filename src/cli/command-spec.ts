import { parseArgs } from 'node:util';
import { GoldenError, suggest } from '../errors.js';
import { wrap } from '../wrap.js';
import type { CliIo } from './cli-io.js';

/** One option of a command, declared once: parsing, `--help` and usage errors all come from it. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  /** One line for `--help`. */
  readonly description: string;
  /** The value's placeholder in `--help`, e.g. `N` or `FILE`. @default 'VALUE' */
  readonly value?: string;
  /** May be given more than once; read with `strings()`. */
  readonly multiple?: boolean;
  /** Whole numbers only, within these bounds; read with `integer()`. */
  readonly integer?: { readonly min: number; readonly max: number };
  /** The only values accepted. */
  readonly choices?: readonly string[];
  /** Shown in `--help`; applied when the option is absent. */
  readonly default?: string | boolean;
}

/** A command as data: its name, what it does, its operands and its options. */
export interface CommandSpec<Names extends string = string> {
  readonly name: string;
  /** One line for `mcp-golden --help`. */
  readonly summary: string;
  /** Operands after the name in the usage line, e.g. `<golden | dir>...`. */
  readonly operands?: string;
  /** Fewest operands the command takes. @default 0 */
  readonly minOperands?: number;
  /** Most operands the command takes. @default unlimited when `operands` is set, else 0 */
  readonly maxOperands?: number;
  /** What is missing when too few operands are given, e.g. `golden path`. */
  readonly missing?: string;
  /** Paragraph under the usage line. */
  readonly description: string;
  readonly options: Readonly<Record<Names, OptionSpec>>;
  /** Extra text after the options (examples, notes). */
  readonly epilog?: string;
  /** Runs the command; everything it reads and writes goes through `io`. */
  readonly run: (args: ParsedArgs<Names>, io: CliIo) => Promise<number>;
}

/** The parsed command line of one command, read through typed accessors. */
export class ParsedArgs<Names extends string> {
  constructor(
    private readonly values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>,
    /** The operands, in order. */
    readonly operands: readonly string[],
  ) {}

  /** A string option's value, or its default. */
  string(name: Names): string | undefined {
    const value = this.values[name];
    return typeof value === 'string' ? value : undefined;
  }

  /** A boolean option: present, or its default. */
  boolean(name: Names): boolean {
    return this.values[name] === true;
  }

  /** Every value of a repeatable option, in order. */
  strings(name: Names): string[] {
    const value = this.values[name];
    if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
    return typeof value === 'string' ? [value] : [];
  }

  /** An integer option's value (bounds already checked), or its default. */
  integer(name: Names): number | undefined {
    const raw = this.string(name);
    return raw === undefined ? undefined : Number(raw);
  }
}

const HELP_WIDTH = 100;

/** The `--help` text of a command. */
export function formatUsage(spec: CommandSpec): string {
  const entries = Object.entries<OptionSpec>(spec.options);
  const flags = entries.map(([name, o]) => (o.type === 'boolean' ? `--${name}` : `--${name} ${o.value ?? 'VALUE'}`));
  const width = Math.min(28, Math.max(0, ...flags.map((f) => f.length)) + 2);
  const lines = entries.map(([, o], i) => {
    const notes = [
      o.choices && `one of ${o.choices.join(', ')}`,
      o.integer && `${o.integer.min} to ${o.integer.max}`,
      o.multiple && 'repeatable',
      o.default !== undefined && o.default !== false && `default: ${String(o.default)}`,
    ].filter(Boolean);
    const flag = flags[i] ?? '';
    const pad = flag.length >= width ? `\n  ${' '.repeat(width)}` : ' '.repeat(width - flag.length);
    const text = wrap(`${o.description}${notes.length ? ` (${notes.join('; ')})` : ''}`, HELP_WIDTH - 2 - width);
    return `  ${flag}${pad}${text.join(`\n  ${' '.repeat(width)}`)}`;
  });
  const usage = `Usage: mcp-golden ${spec.name}${spec.operands ? ` ${spec.operands}` : ''}${entries.length ? ' [options]' : ''}`;
  return [
    usage,
    '',
    spec.description,
    ...(lines.length ? ['', 'Options:', ...lines] : []),
    ...(spec.epilog ? ['', spec.epilog] : []),
  ].join('\n');
}

function usageError(spec: CommandSpec, message: string): GoldenError {
  return new GoldenError('E_USAGE', `${message} Run \`mcp-golden ${spec.name} --help\` for its options.`);
}

function check(spec: CommandSpec, name: string, value: string | boolean | undefined): void {
  const option = spec.options[name];
  if (!option || typeof value !== 'string') return;
  if (option.choices && !option.choices.includes(value)) {
    throw usageError(spec, `Invalid --${name} "${value}": expected one of ${option.choices.join(', ')}.`);
  }
  if (option.integer) {
    const n = Number(value);
    const { min, max } = option.integer;
    if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw usageError(spec, `Invalid --${name} "${value}": expected a whole number from ${min} to ${max}.`);
    }
  }
}

/** Parses `argv` against a command's declaration; unknown flags and bad values are usage errors. */
export function parseCommandArgs<Names extends string>(
  spec: CommandSpec<Names>,
  argv: readonly string[],
): ParsedArgs<Names> {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; default?: string | boolean }> = {};
  for (const [name, o] of Object.entries<OptionSpec>(spec.options)) {
    options[name] = {
      type: o.type,
      ...(o.multiple && { multiple: true }),
      ...(o.default !== undefined && { default: o.default }),
    };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const flag = /'(-{1,2}[^'\s]+)'/.exec(text)?.[1];
    if (flag && /Unknown option/i.test(text)) {
      const near = suggest(flag.replace(/^-+/, ''), Object.keys(spec.options));
      throw usageError(spec, `Unknown option "${flag}" for \`${spec.name}\`.${near ? ` Did you mean --${near}?` : ''}`);
    }
    throw usageError(spec, `${text.replace(/\.$/, '')}.`);
  }
  for (const [name, value] of Object.entries(parsed.values)) {
    for (const one of Array.isArray(value) ? value : [value]) check(spec, name, one);
  }
  if (parsed.positionals.length < (spec.minOperands ?? 0)) {
    const what = spec.missing ? `Missing ${spec.missing}: ` : '';
    const got = parsed.positionals.length === 0 ? 'none' : `only ${parsed.positionals.map((p) => `"${p}"`).join(' ')}`;
    throw usageError(spec, `${what}\`${spec.name}\` needs ${spec.operands ?? 'operands'}; got ${got}.`);
  }
  const most = spec.maxOperands ?? (spec.operands ? Number.POSITIVE_INFINITY : 0);
  if (parsed.positionals.length > most) {
    const extra = parsed.positionals[most] ?? '';
    throw usageError(
      spec,
      `Unexpected argument "${extra}": \`${spec.name}\` takes ${most === 0 ? 'no operands' : `at most ${most}: ${spec.operands}`}.`,
    );
  }
  return new ParsedArgs<Names>(parsed.values, parsed.positionals);
}

/** Declares a command; the type parameter ties `run`'s accessors to the declared option names. */
export function defineCommand<Names extends string>(spec: CommandSpec<Names>): CommandSpec<Names> {
  return spec;
}
