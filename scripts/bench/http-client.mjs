// A minimal MCP client on node:http for the bench: one 'data' event per socket read, time-stamped.
import { request } from 'node:http';

/** POSTs one JSON-RPC body; resolves with the status, headers and every socket read with its offset. */
export function post(url, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        const reads = [];
        res.on('data', (chunk) => reads.push({ t: performance.now() - started, text: chunk.toString('utf8') }));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, reads }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** Initializes a session and calls the `progress` tool; resolves with each notification's arrival offset. */
export async function rawProgressArrivals(url, steps, stepMs) {
  const init = await post(url, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  const session = init.headers['mcp-session-id'];
  const headers = { ...(session && { 'mcp-session-id': session }), 'mcp-protocol-version': '2025-11-25' };
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  const call = await post(
    url,
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'progress', arguments: { steps, step_ms: stepMs }, _meta: { progressToken: 'bench' } },
    },
    headers,
  );
  // Arrival offset of each progress notification: the time of the read that carried it.
  const arrivals = [];
  for (const read of call.reads) for (const _ of read.text.matchAll(/notifications\/progress/g)) arrivals.push(read.t);
  return arrivals;
}
