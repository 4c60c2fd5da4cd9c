// The requests of the official conformance suite's `server-stateless` and `http-header-validation`
// scenarios (@modelcontextprotocol/conformance 0.2.0-alpha.12) that request-battery.ts does not already
// send in another form, as battery cases: each is judged by status and JSON-RPC code against the SDK v2
// server on every `npm test`, not only when the suite runs (test/integration/answering/conformance.test.ts).
import { type BatteryCase, envelope, MODERN, modernHeaders, TOOL } from './request-battery.js';

const PV = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const INFO = 'io.modelcontextprotocol/clientInfo';

const post = (name: string, method: string, params: unknown, headers = modernHeaders(method)): BatteryCase => ({
  name,
  httpMethod: 'POST',
  headers,
  body: JSON.stringify({ jsonrpc: '2.0', id: 301, method, ...(params !== undefined && { params }) }),
});
const meta = (fields: Record<string, unknown>) => ({ _meta: fields });
const full = envelope();

/** The suite's requests, named after the check they feed. */
export const CONFORMANCE_CASES: readonly BatteryCase[] = [
  post('server-stateless: server/discover without _meta', 'server/discover', {}),
  post(
    'server-stateless: server/discover without protocolVersion',
    'server/discover',
    meta({ [INFO]: full[INFO], [CAPS]: {} }),
  ),
  post(
    'server-stateless: server/discover without clientCapabilities',
    'server/discover',
    meta({ [PV]: MODERN, [INFO]: full[INFO] }),
  ),
  post('server-stateless: server/discover without clientInfo', 'server/discover', meta({ [PV]: MODERN, [CAPS]: {} })),
  post('server-stateless: prompts/list (no prompts capability)', 'prompts/list', meta(full)),
  post('server-stateless: v999.0.0 in header and envelope', 'server/discover', meta({ ...full, [PV]: 'v999.0.0' }), {
    ...modernHeaders('server/discover'),
    'mcp-protocol-version': 'v999.0.0',
  }),
  post(
    'server-stateless: header 2026-07-28, envelope v999.0.0',
    'server/discover',
    meta({ ...full, [PV]: 'v999.0.0' }),
  ),
  post(
    'server-stateless: tools/call of a tool not listed',
    'tools/call',
    { name: 'test_missing_capability', arguments: {}, ...meta(full) },
    modernHeaders('tools/call', 'test_missing_capability'),
  ),
  post('server-stateless: resources/subscribe (removed)', 'resources/subscribe', {
    uri: 'mcp-golden://audit-log',
    ...meta(full),
  }),
  post('server-stateless: resources/unsubscribe (removed)', 'resources/unsubscribe', {
    uri: 'mcp-golden://audit-log',
    ...meta(full),
  }),
  post('server-stateless: unknown/method', 'unknown/method', meta(full)),
  post(
    'http-header-validation: Mcp-Name with whitespace around',
    'tools/call',
    { name: TOOL, arguments: { steps: 1, step_ms: 1 }, ...meta(full) },
    modernHeaders('tools/call', `  ${TOOL}  `),
  ),
  post('http-header-validation: tools/call, Mcp-Name absent', 'tools/call', {
    name: TOOL,
    arguments: {},
    ...meta(full),
  }),
  post('http-header-validation: header names in capitals', 'tools/list', meta(full), {
    ACCEPT: 'application/json, text/event-stream',
    'CONTENT-TYPE': 'application/json',
    'MCP-PROTOCOL-VERSION': MODERN,
    'MCP-METHOD': 'tools/list',
  }),
];
