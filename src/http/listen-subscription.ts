import { isJsonObject, type JsonObject } from '../transcript/json-object.js';

/** The `_meta` key every message of a `subscriptions/listen` stream carries: the listen request's id. */
export const SUBSCRIPTION_ID_META_KEY = 'io.modelcontextprotocol/subscriptionId';
const SERVER_INFO_META_KEY = 'io.modelcontextprotocol/serverInfo';

/** What a 2026-07-28 `subscriptions/listen` request gets (the SDK v2 2.4.0 server's `listenRouter`). */
export type ListenAnswer =
  /** The filter is not a `SubscriptionFilter`: a JSON-RPC error in an HTTP 200 body, as the SDK answers it. */
  | { readonly kind: 'refused'; readonly code: number; readonly message: string }
  /**
   * An SSE stream: `messages` first (the acknowledgement, then, when `holdOpen` is false, the
   * result that ends the subscription); with `holdOpen`, the stream stays open for the honored
   * notifications until the client closes it.
   */
  | { readonly kind: 'stream'; readonly messages: readonly JsonObject[]; readonly holdOpen: boolean };

const FLAGS = ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const;
const CAPABILITY_OF: Record<(typeof FLAGS)[number], string> = {
  toolsListChanged: 'tools',
  promptsListChanged: 'prompts',
  resourcesListChanged: 'resources',
};

/** The request's `SubscriptionFilter`, or `undefined` when `params.notifications` is not one. */
function filterOf(params: unknown): JsonObject | undefined {
  const filter = isJsonObject(params) ? params.notifications : undefined;
  if (!isJsonObject(filter)) return undefined;
  for (const flag of FLAGS) if (filter[flag] !== undefined && typeof filter[flag] !== 'boolean') return undefined;
  const uris = filter.resourceSubscriptions;
  if (uris !== undefined && !(Array.isArray(uris) && uris.every((uri) => typeof uri === 'string'))) return undefined;
  return filter;
}

/**
 * The part of a requested filter the server honors: a list-changed flag only where its capability
 * says `listChanged: true`, resource subscriptions only with `resources.subscribe: true`.
 */
export function honoredFilter(requested: JsonObject, capabilities: JsonObject): JsonObject {
  const honored: JsonObject = {};
  const bit = (capability: string, name: string): boolean => {
    const entry = capabilities[capability];
    return isJsonObject(entry) && entry[name] === true;
  };
  for (const flag of FLAGS)
    if (requested[flag] === true && bit(CAPABILITY_OF[flag], 'listChanged')) honored[flag] = true;
  const uris = requested.resourceSubscriptions;
  if (Array.isArray(uris) && uris.length > 0 && bit('resources', 'subscribe'))
    honored.resourceSubscriptions = [...uris];
  return honored;
}

/**
 * Answers a `subscriptions/listen` request (`id`, `params`) for a server with `capabilities` (its
 * `server/discover` ones) and `serverInfo`, as the SDK v2 server does: a stream whose first message is
 * `notifications/subscriptions/acknowledged` naming the honored filter, tagged with the subscription
 * id (the request's id); when nothing is honored, the result that ends the subscription follows at once.
 */
export function answerListen(
  id: string | number,
  params: unknown,
  capabilities: JsonObject,
  serverInfo: JsonObject | undefined,
): ListenAnswer {
  const filter = filterOf(params);
  if (filter === undefined)
    return {
      kind: 'refused',
      code: -32602,
      message: "Invalid params: 'notifications' is required and must be a valid SubscriptionFilter",
    };
  const honored = honoredFilter(filter, capabilities);
  const ack = {
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: honored, _meta: { [SUBSCRIPTION_ID_META_KEY]: id } },
  };
  if (Object.keys(honored).length > 0) return { kind: 'stream', messages: [ack], holdOpen: true };
  const end = {
    jsonrpc: '2.0',
    id,
    result: {
      resultType: 'complete',
      _meta: {
        [SUBSCRIPTION_ID_META_KEY]: id,
        ...(serverInfo !== undefined && { [SERVER_INFO_META_KEY]: serverInfo }),
      },
    },
  };
  return { kind: 'stream', messages: [ack, end], holdOpen: false };
}

/** The `text/event-stream` headers of a listen stream (those the SDK sends). */
export const LISTEN_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

/** One SSE event carrying `message`, as the SDK frames it. */
export const listenEvent = (message: JsonObject): string => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
