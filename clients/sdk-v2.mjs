#!/usr/bin/env node
// `mcp-golden check --client` wrapper for the MCP TypeScript SDK v2 client (@modelcontextprotocol/client 2.4).
// Speaks 2026-07-28 (versionNegotiation pinned to it) when MCP_CONFORMANCE_PROTOCOL_VERSION says so,
// and the plain 2025-11-25 handshake otherwise.
// Usage: mcp-golden check --client 'node node_modules/mcp-golden/clients/sdk-v2.mjs'
// (the check appends the URL; the plan and era come from MCP_GOLDEN_PLAN and MCP_CONFORMANCE_PROTOCOL_VERSION).
// The SDK is used as a host application uses it: default timeouts and reconnection, a progress callback
// when the plan asks for progress, an AbortSignal for a cancel, any elicitation accepted (2025: a server
// request; 2026-07-28: the SDK answers input_required through the same handler and retries).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { failEveryCall, finish, messageOf, readContract, runPlan } from './contract.mjs';

const contract = readContract('sdk-v2.mjs');
const modern = contract.era === '2026-07-28';
const client = new Client(
  { name: 'mcp-golden-sdk-v2', version: '1.0.0' },
  {
    capabilities: { elicitation: {} },
    ...(modern ? { versionNegotiation: { mode: { pin: contract.era } } } : {}),
  },
);
client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { ok: true } }));
client.onerror = (error) => process.stderr.write(`[sdk-v2] ${messageOf(error)}\n`);

try {
  await client.connect(new StreamableHTTPClientTransport(new URL(contract.url)));
} catch (error) {
  failEveryCall(contract, error);
  process.stderr.write(`[mcp-golden] could not connect to ${contract.url}: ${messageOf(error)}\n`);
  await finish(() => client.close(), 1);
}

await runPlan(contract, (call, { signal, onProgress }) =>
  client.callTool(
    { name: call.name, arguments: call.arguments },
    {
      signal,
      ...(onProgress ? { onprogress: ({ progress, total }) => onProgress(progress, total) } : {}),
    },
  ),
);
await finish(() => client.close());
