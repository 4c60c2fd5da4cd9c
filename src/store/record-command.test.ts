import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { isGoldenError } from '../errors.js';
import { scenarioOfGolden } from '../record/scenario-of-golden.js';
import { readGolden } from './golden-file.js';
import { parseTranscript } from './parse-golden.js';
import { isReferenceGolden, recordCommandOf } from './record-command.js';

/** A reference golden as the recorder wrote it before `notes.reference` existed (frozen copy). */
const BEFORE_NOTE = fileURLToPath(
  new URL('../../test/fixtures/before-notes-reference/chatty-stdio.jsonl', import.meta.url),
);

describe('a reference golden: notes.reference, or the label of a golden written before the note', () => {
  test('the note says it, whatever the target is called', () => {
    const header = { scenario: 'chatty', transport: 'http', target: 'http://127.0.0.1:40000/mcp' };
    expect(isReferenceGolden({ ...header, notes: { reference: true } })).toBe(true);
    expect(recordCommandOf({ ...header, notes: { reference: true } }, 'goldens')).toBe('npx mcp-golden record chatty');
    expect(isReferenceGolden(header)).toBe(false);
  });

  test('the note wins over the old label: reference false is a golden of the user’s own server', () => {
    const header = { scenario: 'x', transport: 'http', target: 'mcp-golden serve', notes: { reference: false } };
    expect(isReferenceGolden(header)).toBe(false);
    expect(recordCommandOf(header, 'goldens')).toContain('--target');
  });

  test('notes that do not parse say nothing: the label decides (the header is not validated yet)', () => {
    expect(isReferenceGolden({ target: 'mcp-golden serve', notes: { reference: 'yes' } })).toBe(true);
    expect(isReferenceGolden({ target: 'node server.js', notes: [] })).toBe(false);
  });

  test('a golden written before the note reads as before: a reference golden, its scenario, its fix command', async () => {
    const golden = await readGolden(BEFORE_NOTE);
    expect(golden.header.notes).not.toHaveProperty('reference');
    expect(golden.header.target).toBe('mcp-golden serve --stdio');
    expect(isReferenceGolden(golden.header)).toBe(true);
    expect(recordCommandOf(golden.header, 'goldens')).toBe('npx mcp-golden record chatty-stdio');
    expect(scenarioOfGolden(golden)).toMatchObject({ name: 'chatty-stdio', tool: 'chatty', transport: 'stdio' });
    const text = await readFile(BEFORE_NOTE, 'utf8');
    const error = (() => {
      try {
        parseTranscript(text.slice(0, -10), { source: 'goldens/chatty-stdio.jsonl' });
      } catch (caught) {
        return caught;
      }
    })();
    expect(isGoldenError(error, 'E_GOLDEN_PARSE')).toBe(true);
    expect((error as Error).message).toMatch(/Regenerate it with `npx mcp-golden record chatty-stdio`\.$/);
  });
});

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
