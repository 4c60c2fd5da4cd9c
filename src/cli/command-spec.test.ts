import { describe, expect, test } from 'vitest';
import { suggest } from '../errors.js';
import { defineCommand, formatUsage, parseCommandArgs } from './command-spec.js';

const spec = defineCommand({
  name: 'replay',
  summary: 'serve goldens',
  operands: '<golden | dir>...',
  minOperands: 1,
  description: 'Serves goldens as a fake upstream.',
  options: {
    port: { type: 'string', value: 'N', description: 'listen on 127.0.0.1:N', integer: { min: 0, max: 65535 } },
    pace: {
      type: 'string',
      value: 'P',
      description: 'replay pace',
      choices: ['recorded', 'instant'],
      default: 'recorded',
    },
    header: { type: 'string', value: 'H', description: 'a header', multiple: true },
    stdio: { type: 'boolean', description: 'serve on stdio' },
  },
  run: async () => 0,
});

describe('a command declared once', () => {
  test('parses typed values, defaults, repeatable options and operands', () => {
    const args = parseCommandArgs(spec, ['goldens', '--port', '8080', '--header', 'a: 1', '--header', 'b: 2']);
    expect(args.operands).toEqual(['goldens']);
    expect(args.integer('port')).toBe(8080);
    expect(args.string('pace')).toBe('recorded');
    expect(args.strings('header')).toEqual(['a: 1', 'b: 2']);
    expect(args.boolean('stdio')).toBe(false);
  });

  test('a mistyped flag is a usage error that suggests the declared one', () => {
    expect(() => parseCommandArgs(spec, ['x', '--prot', '1'])).toThrow(
      'Unknown option "--prot" for `replay`. Did you mean --port? Run `mcp-golden replay --help` for its options.',
    );
    expect(() => parseCommandArgs(spec, ['x', '--zzzzzz'])).toThrow(/Unknown option "--zzzzzz" for `replay`\. Run/);
  });

  test('values outside their declaration are usage errors naming the bound', () => {
    expect(() => parseCommandArgs(spec, ['x', '--port', '70000'])).toThrow(
      'Invalid --port "70000": expected a whole number from 0 to 65535.',
    );
    expect(() => parseCommandArgs(spec, ['x', '--pace', 'slow'])).toThrow('expected one of recorded, instant');
    expect(() => parseCommandArgs(spec, [])).toThrow('`replay` needs <golden | dir>...; got none.');
    expect(() => parseCommandArgs(spec, ['x', '--port'])).toThrow(/E_USAGE|argument missing/);
  });

  test('--help is generated from the same declaration', () => {
    const help = formatUsage(spec);
    expect(help).toContain('Usage: mcp-golden replay <golden | dir>... [options]');
    expect(help).toMatch(/--port N\s+listen on 127\.0\.0\.1:N \(0 to 65535\)/);
    expect(help).toMatch(/--pace P\s+replay pace \(one of recorded, instant; default: recorded\)/);
    expect(help).toMatch(/--header H\s+a header \(repeatable\)/);
    for (const name of Object.keys(spec.options)) expect(help).toContain(`--${name}`);
  });

  test('suggests near names only', () => {
    expect(suggest('recrod', ['record', 'replay', 'serve'])).toBe('record');
    expect(suggest('chek', ['check', 'inspect'])).toBe('check');
    expect(suggest('banana', ['record', 'replay'])).toBeUndefined();
  });
});
