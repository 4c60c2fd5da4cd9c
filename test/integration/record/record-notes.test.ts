import { describe, expect, test } from 'vitest';
import { isGoldenError } from '../../../src/errors.js';
import { recordCall } from '../../../src/record/record-call.js';

describe('recordCall: notes given in the options', () => {
  test('a typed key of the wrong type is refused before anything is sent, naming the key', async () => {
    // Nothing listens on port 9 here: a refusal that came from connecting would be a different error.
    const error = await recordCall(
      'http://127.0.0.1:9/mcp',
      { tool: 'echo' },
      { notes: { reference: 'yes', mine: 1 } as never },
    ).catch((e: unknown) => e);
    expect(isGoldenError(error, 'E_USAGE')).toBe(true);
    expect((error as Error).message).toBe(
      'Invalid notes.reference in the record options: expected true or false, got "yes". The header\'s notes take these keys typed (see golden.schema.json); any other key is free.',
    );
  });
});
