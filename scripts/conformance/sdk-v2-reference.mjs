// The conformance table's reference: an @modelcontextprotocol/server 2.4.0 server (`createMcpHandler`)
// serving the reference tools (progress, long_output, chatty: the definitions, argument checks and runs of
// dist/server/reference-tools.js, the ones `serve` runs), on 127.0.0.1 through a small node:http adapter.
// `legacy: 'stateless'` is the SDK's dual-era default, the one dual-era `serve` stands beside.
import { createServer } from 'node:http';
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { findReferenceTool, parseToolArguments, referenceToolDefinitions } from '../../dist/server/reference-tools.js';

function buildServer() {
  const server = new McpServer({ name: 'sdk-v2-reference', version: '2.4.0' });
  for (const definition of referenceToolDefinitions()) {
    const tool = findReferenceTool(definition.name);
    server.registerTool(
      definition.name,
      { description: definition.description, inputSchema: fromJsonSchema(definition.inputSchema) },
      async (raw, ctx) => {
        const args = parseToolArguments(tool, raw);
        const token = ctx.mcpReq._meta?.progressToken;
        return tool.run(args, {
          progressToken: token,
          signal: ctx.mcpReq.signal,
          sendProgress: (progress, total, message) =>
            ctx.mcpReq
              .notify({ method: 'notifications/progress', params: { progressToken: token, progress, total, message } })
              .catch(() => undefined),
          onStep: () => undefined,
        });
      },
    );
  }
  return server;
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return chunks.length > 0 ? Buffer.concat(chunks) : undefined;
}

/** Starts the reference on 127.0.0.1:0; resolves with `{ url, close() }`. */
export async function startSdkV2Reference({ legacy = 'stateless' } = {}) {
  const handler = createMcpHandler(buildServer, { legacy });
  const serve = async (req, res) => {
    const body = await readBody(req);
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else if (Array.isArray(value)) headers.set(name, value.join(', '));
    }
    const response = await handler.fetch(
      new Request(`http://127.0.0.1${req.url ?? '/'}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body !== undefined && { body: new Uint8Array(body) }),
        signal: gone.signal,
      }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return void res.end();
    const reader = response.body.getReader();
    gone.signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        res.write(value);
      }
    } catch {
      // The client went away: the reader was cancelled.
    }
    res.end();
  };
  const server = createServer((req, res) => {
    serve(req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
