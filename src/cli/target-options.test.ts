import { describe, expect, test } from 'vitest';
import { GoldenError } from '../errors.js';
import { parseTargetOptions, splitCommandLine } from './target-options.js';

function usageError(run: () => unknown): GoldenError {
  try {
    run();
  } catch (error) {
    if (error instanceof GoldenError && error.code === 'E_USAGE') return error;
    throw error;
  }
  throw new Error('expected an E_USAGE error');
}

describe('splitCommandLine', () => {
  test('splits words as a shell does, keeping quoted spaces and escapes', () => {
    expect(splitCommandLine(`node  'my server.js' --name "a \\"b\\" c" x\\ y ''`)).toEqual([
      'node',
      'my server.js',
      '--name',
      'a "b" c',
      'x y',
      '',
    ]);
  });

  test('refuses an unclosed quote', () => {
    expect(usageError(() => splitCommandLine(`node 'server.js`)).message).toContain('single quote is not closed');
    expect(usageError(() => splitCommandLine(`node "server.js`)).message).toContain('double quote is not closed');
  });
});

describe('parseTargetOptions', () => {
  test('returns undefined without --stdio and --target', () => {
    expect(parseTargetOptions({})).toBeUndefined();
  });

  test('parses --stdio with leading environment assignments', () => {
    expect(parseTargetOptions({ stdio: 'API_TOKEN=s3cret node server.js --port 0' })).toEqual({
      command: 'node',
      args: ['server.js', '--port', '0'],
      env: { API_TOKEN: 's3cret' },
    });
  });

  test('parses --target with repeated --header', () => {
    expect(
      parseTargetOptions({
        target: 'http://127.0.0.1:3001/mcp',
        header: ['Authorization: Bearer abc', 'X-Tenant:  t1 ', 'x-tenant: t2'],
      }),
    ).toEqual({
      url: 'http://127.0.0.1:3001/mcp',
      headers: { Authorization: 'Bearer abc', 'X-Tenant': 't1', 'x-tenant': 't2' },
    });
  });

  test('refuses contradictory or malformed options with a fix', () => {
    expect(usageError(() => parseTargetOptions({ stdio: 'x', target: 'http://h/mcp' })).message).toMatch(
      /^Both --stdio and --target were given\. .*Run `mcp-golden record --help`/,
    );
    expect(usageError(() => parseTargetOptions({ header: ['A: b'] })).message).toContain('--header needs --target');
    expect(usageError(() => parseTargetOptions({ stdio: 'x', header: ['A: b'] })).message).toContain(
      '--header applies to --target (HTTP) only',
    );
    expect(usageError(() => parseTargetOptions({ stdio: '  ' })).message).toContain('got no command');
    expect(usageError(() => parseTargetOptions({ target: 'ftp://h/mcp?key=1' })).message).toBe(
      'Invalid --target "ftp://h/mcp": expected an http:// or https:// MCP endpoint URL. For example: --target http://127.0.0.1:3001/mcp. Run `mcp-golden record --help` for usage.',
    );
  });

  test('errors send the user to the help of the command that was run', () => {
    expect(usageError(() => parseTargetOptions({ stdio: 'x', target: 'http://h/mcp' }, 'verify')).message).toMatch(
      /Run `mcp-golden verify --help`/,
    );
    expect(usageError(() => parseTargetOptions({ target: 'http://h/mcp', header: ['x'] }, 'verify')).message).toMatch(
      /Run `mcp-golden verify --help`/,
    );
  });

  test('a malformed header is refused without echoing its value', () => {
    const error = usageError(() => parseTargetOptions({ target: 'http://h/mcp', header: ['Bearer sk-secret-1'] }));
    expect(error.message).toContain(`expected 'Name: value', got no ":"`);
    expect(error.message).not.toContain('sk-secret-1');
  });
});
