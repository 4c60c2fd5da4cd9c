import { isJsonObject } from '../transcript/json-object.js';
import { requestResponse } from './client-handshake.js';
import type { Scenario } from './scenario.js';
import type { WireSession } from './wire-session.js';

/** The lists a client reads after `tools/list`, each with the capability that advertises it. */
const LISTS: readonly { readonly method: string; readonly capability: string }[] = [
  { method: 'resources/list', capability: 'resources' },
  { method: 'resources/templates/list', capability: 'resources' },
  { method: 'prompts/list', capability: 'prompts' },
];

/** The list requests a session sends for a server's advertised capabilities (tools are listed apart). */
export function advertisedLists(capabilities: unknown): string[] {
  if (!isJsonObject(capabilities)) return [];
  return LISTS.filter((l) => isJsonObject(capabilities[l.capability])).map((l) => l.method);
}

/**
 * Lists what the server advertises besides its tools (resources, resource templates, prompts), as
 * a client does after `initialize`, so the golden holds the lists a replay answers. Each answer is
 * recorded as it comes, an error too: what the server says is the recording.
 */
export async function listAdvertised(
  session: WireSession,
  scenario: Scenario,
  capabilities: unknown,
  ids: readonly number[],
  timeoutMs: number,
): Promise<void> {
  const methods = advertisedLists(capabilities);
  for (const [index, method] of methods.entries()) {
    const id = ids[index];
    if (id === undefined) break;
    await requestResponse(session, scenario, { jsonrpc: '2.0', id, method }, timeoutMs);
  }
}
