import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { startFaultProxy } from '../../test/support/fault-proxy.js';
import { useTempDir } from '../../test/support/temp-dir.js';
import { findReferenceTool, parseToolArguments } from '../server/reference-tools.js';
import { readGolden } from '../store/golden-file.js';
import { readToolCall } from '../transcript/read-calls.js';
import { progressToken, requestId, scenario, toolArguments } from './arbitraries.js';
import { gatewayProperty } from './gateway-property.js';

const temp = useTempDir('mcp-golden-fc-');

describe('arbitraries', () => {
  test.each(['progress', 'long_output', 'chatty'] as const)(
    '%s arguments stay inside the documented bounds',
    (tool) => {
      const definition = findReferenceTool(tool);
      if (!definition) throw new Error(tool);
      fc.assert(
        fc.property(toolArguments(tool, { maxSteps: 100, maxStepMs: 5000, maxBlocks: 50, maxChars: 65536 }), (args) => {
          expect(parseToolArguments(definition, args)).toEqual({ ...parseToolArguments(definition, {}), ...args });
        }),
      );
    },
  );

  test('tokens cover strings, zero, negatives and 2^53-1; request ids avoid 0', () => {
    const tokens = fc.sample(progressToken(), { numRuns: 500, seed: 42 });
    expect(tokens.some((t) => typeof t === 'string')).toBe(true);
    expect(tokens).toContain(0);
    expect(tokens).toContain(9007199254740991);
    expect(tokens.some((t) => typeof t === 'number' && t < 0)).toBe(true);
    expect(fc.sample(requestId(), { numRuns: 500, seed: 42 })).not.toContain(0);
    for (const s of fc.sample(scenario(), { numRuns: 50, seed: 7 }))
      expect(['progress', 'long_output', 'chatty']).toContain(s.tool);
  });
});

describe('gatewayProperty', () => {
  const bounds = { maxSteps: 4, maxStepMs: 20, maxBlocks: 4, maxChars: 300 };

  test('holds for a faithful gateway across generated scenarios and chunkings', async () => {
    await fc.assert(
      gatewayProperty((upstream) => startFaultProxy(upstream, 'none'), { bounds }),
      { numRuns: 8, seed: 1 },
    );
  }, 120_000);

  test('finds, shrinks and saves a counterexample for a gateway that turns number tokens into strings', async () => {
    const path = join(temp.dir, 'counterexample.jsonl');
    const result = await fc.check(
      gatewayProperty((upstream) => startFaultProxy(upstream, 'token-to-string'), {
        bounds,
        saveCounterexampleTo: path,
      }),
      { numRuns: 30, seed: 3 },
    );
    expect(result.failed).toBe(true);
    const [failing] = result.counterexample ?? [];
    expect(failing?.tool).toBe('progress');
    expect(typeof failing?.progressToken).toBe('number');
    expect(fc.defaultReportMessage(result)).toMatch(/seed: 3, path: "[\d:]+"/);
    const saved = await readGolden(path);
    const view = readToolCall(saved);
    expect(typeof view.token).toBe('number');
    expect(
      view.progress.every((p) => typeof (p.message.params as { progressToken?: unknown }).progressToken === 'string'),
    ).toBe(true);
  }, 180_000);
});
