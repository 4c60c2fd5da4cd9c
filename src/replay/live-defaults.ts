import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { isJsonObject } from '../transcript/json-object.js';
import { resultOf } from '../transcript/json-rpc.js';
import type { ReplayExchange } from './replay-plan.js';

/** The capabilities a golden's server advertised, by name (`tools`, `resources`, `logging`, ...). */
export type Capabilities = Readonly<Record<string, unknown>>;

/**
 * The capabilities the replay advertises: what the recorded `initialize` answers hold. With
 * `source`, only that golden's (the one that answered the session's `initialize`); else every
 * golden's, merged.
 */
export function advertisedCapabilities(exchanges: readonly ReplayExchange[], source?: string): Capabilities {
  const merged: Record<string, unknown> = {};
  for (const exchange of exchanges) {
    if (exchange.message?.method !== 'initialize') continue;
    if (source !== undefined && exchange.source !== source) continue;
    const answer = exchange.events.find((e) => e.message && 'result' in e.message)?.message;
    const capabilities = resultOf(answer)?.capabilities;
    if (!isJsonObject(capabilities)) continue;
    for (const [name, value] of Object.entries(capabilities)) {
      const before = merged[name];
      merged[name] = isJsonObject(before) && isJsonObject(value) ? { ...before, ...value } : value;
    }
  }
  return merged;
}

/**
 * What the modern goldens' `server/discover` answers say of their server: the capabilities (merged
 * over every golden) and the `_meta` server info of the first that has one.
 */
export function discoveredServer(exchanges: readonly ReplayExchange[]): {
  readonly capabilities: Record<string, unknown>;
  readonly serverInfo: Record<string, unknown> | undefined;
} {
  const capabilities: Record<string, unknown> = {};
  let serverInfo: Record<string, unknown> | undefined;
  for (const exchange of exchanges) {
    if (exchange.message?.method !== 'server/discover') continue;
    const result = resultOf(exchange.events.find((e) => e.message && 'result' in e.message)?.message);
    if (isJsonObject(result?.capabilities)) Object.assign(capabilities, result.capabilities);
    const info = isJsonObject(result?._meta) ? result._meta['io.modelcontextprotocol/serverInfo'] : undefined;
    if (serverInfo === undefined && isJsonObject(info)) serverInfo = info;
  }
  return { capabilities, serverInfo };
}

const has = (capabilities: Capabilities, name: string): boolean =>
  capabilities[name] !== undefined && capabilities[name] !== null && capabilities[name] !== false;

const canSubscribe = (capabilities: Capabilities): boolean => {
  const resources = capabilities.resources;
  return isJsonObject(resources) && resources.subscribe === true;
};

/**
 * What a live server answers without anything to record, by method: the capability it needs
 * (`undefined`: none) and the result. A list a golden did not record is empty, as a server with
 * nothing of that kind answers.
 */
const DEFAULTS: Readonly<
  Record<string, { readonly needs: ((c: Capabilities) => boolean) | undefined; readonly result: object }>
> = {
  ping: { needs: undefined, result: {} },
  'logging/setLevel': { needs: (c) => has(c, 'logging'), result: {} },
  'resources/subscribe': { needs: canSubscribe, result: {} },
  'resources/unsubscribe': { needs: canSubscribe, result: {} },
  'completion/complete': {
    needs: (c) => has(c, 'completions'),
    result: { completion: { values: [], total: 0, hasMore: false } },
  },
  'tools/list': { needs: (c) => has(c, 'tools'), result: { tools: [] } },
  'resources/list': { needs: (c) => has(c, 'resources'), result: { resources: [] } },
  'resources/templates/list': { needs: (c) => has(c, 'resources'), result: { resourceTemplates: [] } },
  'prompts/list': { needs: (c) => has(c, 'prompts'), result: { prompts: [] } },
};

/**
 * The answer a live server gives to a request no golden recorded, when the request is one any
 * server that advertised the capability answers the same way: `ping`; `logging/setLevel` (logging
 * advertised); `resources/subscribe` and `unsubscribe` (`resources.subscribe`); `completion/complete`
 * with no values (`completions`); and an empty `tools/list`, `resources/list`,
 * `resources/templates/list` or `prompts/list` for an advertised capability. `undefined` for any
 * other request, which stays unmatched.
 */
export function liveDefaultResult(message: JsonRpcMessage, capabilities: Capabilities): object | undefined {
  const method = message.method;
  const entry = typeof method === 'string' && Object.hasOwn(DEFAULTS, method) ? DEFAULTS[method] : undefined;
  if (!entry) return undefined;
  if (entry.needs && !entry.needs(capabilities)) return undefined;
  return entry.result;
}

/** The report's remark on a request answered by {@link liveDefaultResult}. */
export const LIVE_DEFAULT_REMARK = 'answered as a live server would without a recording';

/** The golden whose `initialize` answered a session, while the session still holds that call. */
export function sessionSource(session: {
  readonly calls: readonly { readonly exchange: ReplayExchange }[];
}): string | undefined {
  return session.calls.find((c) => c.exchange.message?.method === 'initialize')?.exchange.source;
}
