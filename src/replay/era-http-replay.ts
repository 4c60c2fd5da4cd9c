import type { HttpRuleOptions } from './http-guards.js';
import { HttpReplay } from './http-replay.js';
import { ModernHttpReplay, splitGoldensByEra } from './modern-http-replay.js';
import { ReplayEngine, type ReplayOptions } from './replay-engine.js';
import type { GoldenInput } from './replay-plan.js';

/**
 * The HTTP replay of a set of goldens of either era: the legacy goldens behind sessions (the
 * Streamable HTTP adapter), the modern ones (2026-07-28) per request beside them, each request
 * routed by what it says of itself.
 */
export function createHttpReplay(
  goldens: readonly GoldenInput[],
  options: ReplayOptions,
  rules: HttpRuleOptions,
): HttpReplay {
  const { legacy, modern } = splitGoldensByEra(goldens);
  const modernSide = modern.length > 0 ? ModernHttpReplay.of(modern, options, legacy.length > 0) : undefined;
  return new HttpReplay(new ReplayEngine(legacy, options), rules, modernSide);
}
