import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { readGolden } from '../store/golden-file.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { explainUnmatched } from './matching.js';
import { buildReplayPlan } from './replay-plan.js';

const GOLDENS = fileURLToPath(new URL('../../goldens', import.meta.url));
const named = async (name: string) => ({
  file: `${name}.jsonl`,
  golden: await readGolden(join(GOLDENS, `${name}.jsonl`)),
});
// chatty first: on equal counts of differences, the first recording read would win.
const { exchanges } = buildReplayPlan([await named('chatty'), await named('progress-10x100')]);

const call = (name: string, args?: object): JsonRpcMessage => ({
  jsonrpc: '2.0',
  id: 9,
  method: 'tools/call',
  params: { name, ...(args && { arguments: args }) },
});

describe('the nearest recorded request named for an unmatched one', () => {
  test('is a call of the same tool with other arguments before another tool, even with fewer differences', () => {
    // Without a token, progress-10x100 differs in steps and the token (2), chatty in name and arguments (2).
    const error = explainUnmatched(exchanges, call('progress', { steps: 3, step_ms: 100 }));
    expect(error.message).toContain('Closest recorded (progress-10x100.jsonl #');
    expect(error.data.differences).toContain('params.arguments.steps: recorded 10, got 3');
    expect(error.code).toBe(-32602);
  });

  test('says what a recording holds where matching read its empty arguments as none', () => {
    const error = explainUnmatched(exchanges, call('chatty', { loud: true }));
    expect(error.message).toContain('Closest recorded (chatty.jsonl #');
    expect(error.data.differences).toEqual(['params.arguments: recorded {}, got {"loud":true}']);
  });
});
