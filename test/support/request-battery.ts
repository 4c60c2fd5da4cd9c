// The battery of HTTP requests sent alike to the SDK v2 2.4.0 server (the reference), `serve` and
// `replay`: both eras, good and bad. Each answer is compared by HTTP status and JSON-RPC error code
// only; the reference decides what is right, so no case says what it expects.
//
// The 2026-07-28 cases follow the SDK's inbound ladder (classifyInboundRequest, the entry's
// supported-revision and standard-header gates, the method registry) and the requests of the
// official conformance suite's `server-stateless` and `http-header-validation` scenarios
// (@modelcontextprotocol/conformance 0.2.0-alpha.12).

/** One HTTP request of the battery. */
export interface BatteryCase {
  readonly name: string;
  readonly httpMethod: 'POST' | 'GET' | 'DELETE' | 'PUT';
  readonly headers: Readonly<Record<string, string>>;
  /** The body as sent (text, so a broken body can be sent too). */
  readonly body?: string;
}

export const MODERN = '2026-07-28';
const PV = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const INFO = 'io.modelcontextprotocol/clientInfo';

/** The 2026-07-28 per-request envelope, as the SDK v2 client sends it. */
export const envelope = (version: unknown = MODERN): Record<string, unknown> => ({
  [PV]: version,
  [INFO]: { name: 'battery', version: '1' },
  [CAPS]: {},
});

const ACCEPT = 'application/json, text/event-stream';
const JSON_TYPE = 'application/json';

/** The headers a 2026-07-28 request carries for `method` (and `name`, where the method names something). */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    accept: ACCEPT,
    'content-type': JSON_TYPE,
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    ...(name !== undefined && { 'mcp-name': name }),
  };
}

const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const without = (headers: Record<string, string>, name: string): Record<string, string> => {
  const { [name]: _dropped, ...rest } = headers;
  return rest;
};
const body = (method: string, params: Record<string, unknown> | undefined, id: number | string | null = 1): string =>
  JSON.stringify({ jsonrpc: '2.0', ...(id !== null && { id }), method, ...(params !== undefined && { params }) });
const modern = (method: string, params: Record<string, unknown> = {}, id: number | string | null = 1): string =>
  body(method, { ...params, _meta: envelope() }, id);

/** A tool every target serves (the SDK fixture's and the reference server's `progress`). */
export const TOOL = 'progress';
const CALL = { name: TOOL, arguments: { steps: 1, step_ms: 1 } };

/** The 2026-07-28 requests. */
export const MODERN_CASES: readonly BatteryCase[] = [
  {
    name: 'server/discover',
    httpMethod: 'POST',
    headers: modernHeaders('server/discover'),
    body: modern('server/discover'),
  },
  { name: 'tools/list', httpMethod: 'POST', headers: modernHeaders('tools/list'), body: modern('tools/list') },
  {
    name: 'tools/list with a string id',
    httpMethod: 'POST',
    headers: modernHeaders('tools/list'),
    body: modern('tools/list', {}, 'req-a'),
  },
  {
    name: 'no _meta envelope, a 2026-07-28 header',
    httpMethod: 'POST',
    headers: modernHeaders('tools/list'),
    body: body('tools/list', {}),
  },
  {
    name: 'no params at all, a 2026-07-28 header',
    httpMethod: 'POST',
    headers: modernHeaders('tools/list'),
    body: body('tools/list', undefined),
  },
  {
    name: 'envelope without clientCapabilities',
    httpMethod: 'POST',
    headers: modernHeaders('tools/list'),
    body: body('tools/list', { _meta: { [PV]: MODERN, [INFO]: { name: 'b', version: '1' } } }),
  },
  {
    name: 'envelope without protocolVersion, a 2026-07-28 header',
    httpMethod: 'POST',
    headers: modernHeaders('tools/list'),
    body: body('tools/list', { _meta: { [CAPS]: {}, [INFO]: { name: 'b', version: '1' } } }),
  },
  {
    name: 'envelope without clientInfo (a SHOULD)',
    httpMethod: 'POST',
    headers: modernHeaders('tools/list'),
    body: body('tools/list', { _meta: { [PV]: MODERN, [CAPS]: {} } }),
  },
  {
    name: 'clientCapabilities not an object',
    httpMethod: 'POST',
    headers: modernHeaders('tools/list'),
    body: body('tools/list', { _meta: { ...envelope(), [CAPS]: 'all' } }),
  },
  {
    name: 'protocolVersion not a string',
    httpMethod: 'POST',
    headers: modernHeaders('tools/list'),
    body: body('tools/list', { _meta: envelope(20260728) }),
  },
  {
    name: 'header 2026-07-28, envelope 2025-11-25',
    httpMethod: 'POST',
    headers: modernHeaders('tools/list'),
    body: body('tools/list', { _meta: envelope('2025-11-25') }),
  },
  {
    name: 'header 2025-11-25, envelope 2026-07-28',
    httpMethod: 'POST',
    headers: { ...modernHeaders('tools/list'), 'mcp-protocol-version': '2025-11-25' },
    body: modern('tools/list'),
  },
  {
    name: 'an unsupported future revision in header and envelope',
    httpMethod: 'POST',
    headers: { ...modernHeaders('tools/list'), 'mcp-protocol-version': '2099-01-01' },
    body: body('tools/list', { _meta: envelope('2099-01-01') }),
  },
  {
    name: 'no MCP-Protocol-Version header',
    httpMethod: 'POST',
    headers: without(modernHeaders('tools/list'), 'mcp-protocol-version'),
    body: modern('tools/list'),
  },
  {
    name: 'no Mcp-Method header',
    httpMethod: 'POST',
    headers: without(modernHeaders('tools/list'), 'mcp-method'),
    body: modern('tools/list'),
  },
  {
    name: 'Mcp-Method disagrees with the body',
    httpMethod: 'POST',
    headers: modernHeaders('prompts/list'),
    body: modern('tools/list'),
  },
  {
    name: 'Mcp-Method in the base64 sentinel',
    httpMethod: 'POST',
    headers: modernHeaders(`=?base64?${base64('tools/list')}?=`),
    body: modern('tools/list'),
  },
  {
    name: 'Mcp-Method in another case',
    httpMethod: 'POST',
    headers: modernHeaders('Tools/List'),
    body: modern('tools/list'),
  },
  {
    name: 'tools/call without Mcp-Name',
    httpMethod: 'POST',
    headers: modernHeaders('tools/call'),
    body: modern('tools/call', CALL),
  },
  {
    name: 'tools/call, Mcp-Name disagrees',
    httpMethod: 'POST',
    headers: modernHeaders('tools/call', 'chatty'),
    body: modern('tools/call', CALL),
  },
  {
    name: 'tools/call, Mcp-Name in the base64 sentinel',
    httpMethod: 'POST',
    headers: modernHeaders('tools/call', `=?base64?${base64(TOOL)}?=`),
    body: modern('tools/call', CALL),
  },
  {
    name: 'tools/call, Mcp-Name in the base64 sentinel without padding',
    httpMethod: 'POST',
    headers: modernHeaders('tools/call', `=?base64?${base64(TOOL).replace(/=+$/, '')}?=`),
    body: modern('tools/call', CALL),
  },
  {
    name: 'tools/call, Mcp-Name with a broken base64 sentinel',
    httpMethod: 'POST',
    headers: modernHeaders('tools/call', '=?base64?@@@?='),
    body: modern('tools/call', CALL),
  },
  {
    name: 'tools/call, Mcp-Name in another case',
    httpMethod: 'POST',
    headers: modernHeaders('tools/call', TOOL.toUpperCase()),
    body: modern('tools/call', CALL),
  },
  {
    name: 'prompts/get without Mcp-Name',
    httpMethod: 'POST',
    headers: modernHeaders('prompts/get'),
    body: modern('prompts/get', { name: 'p' }),
  },
  {
    name: 'resources/read, Mcp-Name disagrees with the uri',
    httpMethod: 'POST',
    headers: modernHeaders('resources/read', 'mcp-golden://other'),
    body: modern('resources/read', { uri: 'mcp-golden://audit-log' }),
  },
  // subscriptions/listen (the conformance suite's subscription checks). A filter the server honors holds the
  // stream open (the SDK fixture honors toolsListChanged), so these ask only for what no target honors.
  ...[
    ['subscriptions/listen for a list no target changes', { notifications: { promptsListChanged: true } }],
    ['subscriptions/listen with an empty filter', { notifications: {} }],
    ['subscriptions/listen for a resource', { notifications: { resourceSubscriptions: ['mcp-golden://audit-log'] } }],
    ['subscriptions/listen without a filter', {}],
    ['subscriptions/listen, a flag not a boolean', { notifications: { promptsListChanged: 'yes' } }],
    ['subscriptions/listen, a filter not an object', { notifications: ['tools'] }],
  ].map(([name, params]) => ({
    name: name as string,
    httpMethod: 'POST' as const,
    headers: modernHeaders('subscriptions/listen'),
    body: modern('subscriptions/listen', params as Record<string, unknown>, 'listen-1'),
  })),
  { name: 'ping (removed in 2026-07-28)', httpMethod: 'POST', headers: modernHeaders('ping'), body: modern('ping') },
  {
    name: 'initialize with a 2026-07-28 envelope (removed)',
    httpMethod: 'POST',
    headers: modernHeaders('initialize'),
    body: modern('initialize', { protocolVersion: MODERN, capabilities: {}, clientInfo: { name: 'b', version: '1' } }),
  },
  {
    name: 'logging/setLevel (removed in 2026-07-28)',
    httpMethod: 'POST',
    headers: modernHeaders('logging/setLevel'),
    body: modern('logging/setLevel', { level: 'info' }),
  },
  {
    name: 'a method nobody defines',
    httpMethod: 'POST',
    headers: modernHeaders('no/such-method'),
    body: modern('no/such-method'),
  },
  {
    name: 'a 2026-07-28 notification',
    httpMethod: 'POST',
    headers: modernHeaders('notifications/cancelled'),
    body: body('notifications/cancelled', { requestId: 99, _meta: envelope() }, null),
  },
  {
    name: 'a notification, header 2026-07-28 only',
    httpMethod: 'POST',
    headers: modernHeaders('notifications/roots/list_changed'),
    body: body('notifications/roots/list_changed', {}, null),
  },
  {
    name: 'a batch holding a 2026-07-28 request',
    httpMethod: 'POST',
    headers: modernHeaders('tools/list'),
    body: `[${modern('tools/list')}]`,
  },
  {
    name: 'a body that is not JSON',
    httpMethod: 'POST',
    headers: modernHeaders('tools/list'),
    body: '{"jsonrpc":"2.0",',
  },
  {
    name: 'a JSON body that is not JSON-RPC',
    httpMethod: 'POST',
    headers: modernHeaders('tools/list'),
    body: '{"hello":"world"}',
  },
  {
    name: 'Content-Type text/plain',
    httpMethod: 'POST',
    headers: { ...modernHeaders('tools/list'), 'content-type': 'text/plain' },
    body: modern('tools/list'),
  },
  {
    name: 'Accept without text/event-stream',
    httpMethod: 'POST',
    headers: { ...modernHeaders('tools/list'), accept: 'application/json' },
    body: modern('tools/list'),
  },
  {
    name: 'GET, a 2026-07-28 header',
    httpMethod: 'GET',
    headers: { accept: 'text/event-stream', 'mcp-protocol-version': MODERN },
  },
  { name: 'DELETE, a 2026-07-28 header', httpMethod: 'DELETE', headers: { 'mcp-protocol-version': MODERN } },
];

const legacyHeaders: Record<string, string> = { accept: ACCEPT, 'content-type': JSON_TYPE };
const initialize = (version: string): string =>
  body('initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 'battery', version: '1' } });

/** The 2025 requests: a modern-only server refuses them, a dual-era one serves them. */
export const LEGACY_CASES: readonly BatteryCase[] = [
  { name: '2025 initialize', httpMethod: 'POST', headers: legacyHeaders, body: initialize('2025-11-25') },
  {
    name: '2025 initialize with a 2026-07-28 header',
    httpMethod: 'POST',
    headers: { ...legacyHeaders, 'mcp-protocol-version': MODERN },
    body: initialize('2025-11-25'),
  },
  {
    name: '2025 request naming an unknown version',
    httpMethod: 'POST',
    headers: { ...legacyHeaders, 'mcp-protocol-version': '1999-01-01' },
    body: body('tools/list', {}),
  },
  {
    name: '2025 notification',
    httpMethod: 'POST',
    headers: legacyHeaders,
    body: body('notifications/initialized', {}, null),
  },
  {
    name: 'a posted JSON-RPC response',
    httpMethod: 'POST',
    headers: legacyHeaders,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }),
  },
  { name: 'an empty batch', httpMethod: 'POST', headers: legacyHeaders, body: '[]' },
  { name: 'GET without a session', httpMethod: 'GET', headers: { accept: 'text/event-stream' } },
];

/** What an answer is compared by. */
export interface Answer {
  readonly status: number;
  /** The JSON-RPC error code, when the body is one JSON-RPC error. */
  readonly code?: number;
}

/** Sends one case to `url` and reads its answer's status and error code (an SSE body is read for its last message). */
export async function send(url: string, request: BatteryCase): Promise<Answer> {
  const response = await fetch(url, {
    method: request.httpMethod,
    headers: request.headers,
    ...(request.body !== undefined && { body: request.body }),
  });
  // A GET stream stays open: its status is the answer.
  if (request.httpMethod === 'GET' && response.headers.get('content-type')?.includes('text/event-stream')) {
    await response.body?.cancel();
    return { status: response.status };
  }
  const text = await response.text();
  return { status: response.status, ...codeOf(text) };
}

function codeOf(text: string): { code?: number } {
  const candidates = text.startsWith('{')
    ? [text]
    : text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim());
  for (const candidate of candidates.reverse()) {
    try {
      const message = JSON.parse(candidate) as { error?: { code?: unknown }; id?: unknown; result?: unknown };
      if (typeof message.error?.code === 'number') return { code: message.error.code };
      if ('result' in message) return {};
    } catch {
      // Not JSON: no code.
    }
  }
  return {};
}
