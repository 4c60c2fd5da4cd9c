import { crossGoldens } from './cross-era.js';
import { GoldenPeer, splitGoldensByEra } from './golden-peer.js';
import type { HttpRuleOptions } from './http-guards.js';
import { HttpReplay } from './http-replay.js';
import { ReplayEngine, type ReplayOptions } from './replay-engine.js';
import type { GoldenInput } from './replay-plan.js';

/**
 * The HTTP replay of a set of goldens of either era: the legacy goldens behind sessions (the
 * Streamable HTTP adapter), the modern ones (2026-07-28) per request beside them, each request
 * routed by what it says of itself. Each side also holds the other era's goldens re-framed for its
 * clients ({@link crossGoldens}), after its own: a call recorded in one era answers a client of
 * the other where no golden of the client's era does, and the report names that answer's golden
 * as `(<version> golden, answered across eras)`.
 */
export function createHttpReplay(
  goldens: readonly GoldenInput[],
  options: ReplayOptions,
  rules: HttpRuleOptions,
): HttpReplay {
  const { legacy, modern } = splitGoldensByEra(goldens);
  // The handshake is made up only when no golden of that era answers it: one replay is one server.
  const legacyServed = [...legacy, ...crossGoldens(modern, 'legacy', legacy.length === 0)];
  // 2025 goldens are re-framed for 2026-07-28 clients when the first one comes.
  const modernServed = (): GoldenInput[] => [...modern, ...crossGoldens(legacy, 'modern', modern.length === 0)];
  const modernSide = goldens.length > 0 ? GoldenPeer.of(modernServed, options, modern.length > 0) : undefined;
  return new HttpReplay(new ReplayEngine(legacyServed, options), rules, modernSide, legacy.length > 0);
}
