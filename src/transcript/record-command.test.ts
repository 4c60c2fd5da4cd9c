import { describe, expect, test } from 'vitest';
import { recordCommandOf } from './record-command.js';

describe('recordCommandOf', () => {
  test('a reference golden is recorded again by its scenario name alone', () => {
    for (const target of ['mcp-golden serve', 'mcp-golden serve --stdio', 'mcp-golden serve --json-response'])
      expect(recordCommandOf({ scenario: 'chatty', transport: 'http', target }, 'goldens')).toBe(
        'npx mcp-golden record chatty',
      );
  });

  test("a golden of the user's server names the server, the scenario and the folder", () => {
    expect(
      recordCommandOf({ scenario: 'echo', transport: 'http', target: 'http://127.0.0.1:3000/mcp' }, 'goldens'),
    ).toBe('npx mcp-golden record echo --target http://127.0.0.1:3000/mcp --scenarios <scenarios.json> --out goldens');
    expect(recordCommandOf({ scenario: 'echo', transport: 'stdio', target: 'node server.js' }, 'test/goldens')).toBe(
      "npx mcp-golden record echo --stdio 'node server.js' --scenarios <scenarios.json> --out test/goldens",
    );
  });

  test('text the shell would split or expand is quoted, single quotes included', () => {
    expect(
      recordCommandOf({ scenario: "it's $HOME", transport: 'stdio', target: "python -c 'print(1)'" }, 'my goldens'),
    ).toBe(
      `npx mcp-golden record 'it'\\''s $HOME' --stdio 'python -c '\\''print(1)'\\''' --scenarios <scenarios.json> --out 'my goldens'`,
    );
  });

  test('a reference-looking prefix of another command is not a reference golden', () => {
    expect(recordCommandOf({ scenario: 'x', transport: 'stdio', target: 'mcp-golden server.js' })).toBe(
      "npx mcp-golden record x --stdio 'mcp-golden server.js' --scenarios <scenarios.json> --out <dir>",
    );
    expect(recordCommandOf({ scenario: 'x', transport: 'http', target: 'mcp-golden served' })).toContain('--target');
  });

  test('no scenario, no command; a header without a target gets placeholders', () => {
    expect(recordCommandOf({ transport: 'http', target: 'mcp-golden serve' })).toBeUndefined();
    expect(recordCommandOf({ scenario: 'a' })).toBe(
      'npx mcp-golden record a --target <url> --scenarios <scenarios.json> --out <dir>',
    );
    expect(recordCommandOf({ scenario: 'a', transport: 'stdio' })).toBe(
      "npx mcp-golden record a --stdio '<server command>' --scenarios <scenarios.json> --out <dir>",
    );
  });
});
