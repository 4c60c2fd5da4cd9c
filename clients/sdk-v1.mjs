#!/usr/bin/env node
// `mcp-golden check --client` wrapper for the MCP TypeScript SDK v1 client
// (@modelcontextprotocol/sdk 1.32, Client + StreamableHTTPClientTransport, protocol 2025-11-25).
// Usage: mcp-golden check --client 'node node_modules/mcp-golden/clients/sdk-v1.mjs'
// (the check appends the URL; the plan and era come from MCP_GOLDEN_PLAN and MCP_CONFORMANCE_PROTOCOL_VERSION).
// The SDK is used as a host application uses it: default timeouts and reconnection, a progress callback
// when the plan asks for progress, an AbortSignal for a cancel, any elicitation accepted.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { failEveryCall, finish, messageOf, readContract, runPlan } from './contract.mjs';

const contract = readContract('sdk-v1.mjs');
if (contract.era !== '2025-11-25') {
  // SDK v1 speaks 2025-11-25 only: say so on every call rather than pretend.
  failEveryCall(contract, new Error(`SDK v1 does not speak ${contract.era}`));
  await finish(() => {});
}

const client = new Client({ name: 'mcp-golden-sdk-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { ok: true } }));
client.onerror = (error) => process.stderr.write(`[sdk-v1] ${messageOf(error)}\n`);

try {
  await client.connect(new StreamableHTTPClientTransport(new URL(contract.url)));
} catch (error) {
  failEveryCall(contract, error);
  process.stderr.write(`[mcp-golden] could not connect to ${contract.url}: ${messageOf(error)}\n`);
  await finish(() => client.close(), 1);
}

await runPlan(contract, (call, { signal, onProgress }) =>
  client.callTool({ name: call.name, arguments: call.arguments }, undefined, {
    signal,
    ...(onProgress ? { onprogress: ({ progress, total }) => onProgress(progress, total) } : {}),
  }),
);
await finish(() => client.close());
