import { isJsonObject } from '../transcript/json-object.js';
import { resultOf } from '../transcript/json-rpc.js';
import type { ReplayPlan } from './replay-plan.js';

/** The server an `initialize` answer names: `name version` of its `serverInfo`. */
function serverOf(result: Record<string, unknown> | undefined): string | undefined {
  const info = result?.serverInfo;
  if (!isJsonObject(info) || typeof info.name !== 'string') return undefined;
  return typeof info.version === 'string' ? `${info.name} ${info.version}` : info.name;
}

/**
 * A warning when the goldens of one replay were recorded from different servers (their
 * `initialize` answers name different `serverInfo`): a replay is one server, so it answers
 * `initialize`, `tools/list` and every other request both recorded as one of them, and a client
 * would silently see only that server's tools. `undefined` when they agree.
 */
export function mixedServersWarning(plan: ReplayPlan): string | undefined {
  const sources = new Map<string, Set<string>>();
  for (const exchange of plan.exchanges) {
    if (exchange.message?.method !== 'initialize') continue;
    const answer = exchange.events.find((e) => e.message && 'result' in e.message)?.message;
    const server = serverOf(resultOf(answer));
    if (server === undefined) continue;
    const files = sources.get(server) ?? new Set<string>();
    files.add(exchange.source);
    sources.set(server, files);
  }
  if (sources.size < 2) return undefined;
  const list = [...sources].map(([server, files]) => `"${server}" (${[...files].join(', ')})`).join(', ');
  return `[mcp-golden] The goldens of this replay come from ${sources.size} different servers: ${list}. One replay is one server: it answers initialize, tools/list and any request recorded by several of them from one golden only, so a client sees one server's handshake and tools. Replay each server's goldens in its own replay (one mcp-golden replay per server).`;
}
