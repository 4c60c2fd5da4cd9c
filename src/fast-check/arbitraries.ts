import fc from 'fast-check';
import type { Scenario } from '../record/scenario.js';
import type { ChunkingOptions } from '../replay/chunking.js';

/** Bounds for generated tool arguments: the documented ones, or tighter to keep runs short. */
export interface ArgumentBounds {
  /** @default 10 (documented maximum 100) */
  readonly maxSteps?: number;
  /** @default 50 (documented maximum 5000) */
  readonly maxStepMs?: number;
  /** @default 8 (documented maximum 50) */
  readonly maxBlocks?: number;
  /** @default 4096 (documented maximum 65536) */
  readonly maxChars?: number;
}

/** Arguments of a reference tool, inside the documented bounds (tightened by `bounds`). */
export function toolArguments(
  tool: 'progress' | 'long_output' | 'chatty',
  bounds: ArgumentBounds = {},
): fc.Arbitrary<Record<string, number>> {
  if (tool === 'progress') {
    return fc.record(
      {
        steps: fc.integer({ min: 1, max: Math.min(100, bounds.maxSteps ?? 10) }),
        step_ms: fc.integer({ min: 1, max: Math.min(5000, bounds.maxStepMs ?? 50) }),
      },
      { noNullPrototype: true },
    );
  }
  if (tool === 'long_output') {
    return fc.record(
      {
        blocks: fc.integer({ min: 1, max: Math.min(50, bounds.maxBlocks ?? 8) }),
        chars: fc.integer({ min: 1, max: Math.min(65536, bounds.maxChars ?? 4096) }),
      },
      { noNullPrototype: true },
    );
  }
  return fc.constant({});
}

/**
 * Progress tokens bridges get wrong: unicode and emoji strings, numeric-looking strings, `0`,
 * negatives, and integers up to 2^53-1.
 */
export function progressToken(): fc.Arbitrary<string | number> {
  return fc.oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 }),
    fc.constantFrom('0', '7', 'café', '🚀', 'token with spaces'),
    fc.constantFrom(0, -1, 9007199254740991, -9007199254740991),
    fc.integer(),
    fc.maxSafeInteger(),
  );
}

/** JSON-RPC request ids of unusual shapes (0 is left to `initialize`): strings and large offsets. */
export function requestId(): fc.Arbitrary<string | number> {
  return fc.oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
    fc.integer({ min: 1, max: 1000 }),
    fc.integer({ min: 2 ** 31, max: Number.MAX_SAFE_INTEGER }),
  );
}

/** Adversarial re-chunkings of the upstream's SSE (see the replayer's `chunking` option). */
export function chunking(): fc.Arbitrary<ChunkingOptions> {
  return fc.record(
    {
      splitEvents: fc.integer({ min: 1, max: 4 }),
      splitUtf8: fc.boolean(),
      crlf: fc.boolean(),
      keepAliveComments: fc.boolean(),
      primingEvents: fc.boolean(),
    },
    { noNullPrototype: true },
  );
}

/** A scenario for one of the reference tools, with a token (or none) and an unusual request id. */
export function scenario(bounds: ArgumentBounds = {}): fc.Arbitrary<Scenario> {
  return fc.constantFrom('progress' as const, 'long_output' as const, 'chatty' as const).chain((tool) =>
    fc
      .record(
        {
          tool: fc.constant(tool),
          arguments: toolArguments(tool, bounds),
          progressToken: tool === 'progress' ? progressToken() : fc.constant(undefined),
          requestId: requestId(),
        },
        { requiredKeys: ['tool', 'arguments', 'requestId'], noNullPrototype: true },
      )
      .map(
        (s) =>
          (s.progressToken === undefined
            ? { tool: s.tool, arguments: s.arguments, requestId: s.requestId }
            : s) as Scenario,
      ),
  );
}
