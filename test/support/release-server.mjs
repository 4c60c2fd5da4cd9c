// A small MCP server written with the SDK, in "releases" that change what a server author might
// change by accident: a text, a lost notification, a buffer in front of the progress, a tool schema.
// Plain JavaScript so a test can also start it as a child: `node release-server.mjs --stdio v1` (stdio),
// `node release-server.mjs --http v1 text-changed` (HTTP, each release on its own port).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

/** Every release the server knows. */
export const RELEASES = ['v1', 'text-changed', 'lost-progress', 'buffered', 'breaking', 'compatible', 'removed'];

const STEP_MS = 80;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function tools(release) {
  const report = {
    name: 'report',
    description: 'Writes a short report on a topic.',
    inputSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
  };
  if (release === 'breaking') {
    report.inputSchema.properties.limit = { type: 'integer' };
    report.inputSchema.required = ['topic', 'limit'];
  }
  if (release === 'compatible') report.inputSchema.properties.format = { type: 'string', enum: ['text', 'md'] };
  const count = {
    name: 'count',
    description: 'Counts to steps, reporting progress at each step.',
    inputSchema: { type: 'object', properties: { steps: { type: 'integer', minimum: 1 } }, required: ['steps'] },
  };
  // `removed`: the report tool is gone (its calls get the SDK's unknown-tool error).
  const list = release === 'removed' ? [count] : [report, count];
  if (release === 'compatible') {
    list.push({ name: 'summary', description: 'New in this release.', inputSchema: { type: 'object' } });
  }
  return list;
}

/** Creates the low-level SDK server of one release. */
export function createReleaseServer(release) {
  if (!RELEASES.includes(release)) throw new Error(`unknown release ${release}; expected one of ${RELEASES}`);
  const server = new Server({ name: 'release-server', version: release }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools(release) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = request.params.arguments ?? {};
    if (release === 'removed' && request.params.name === 'report') {
      throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    }
    if (request.params.name === 'report') {
      const title = release === 'text-changed' ? 'Report on' : 'report on';
      return {
        content: [
          { type: 'text', text: `${title} ${String(args.topic)}` },
          { type: 'text', text: `generated ${new Date().toISOString()} as ${randomUUID()}` },
        ],
      };
    }
    const steps = Number(args.steps ?? 4);
    const token = request.params._meta?.progressToken;
    const notify = (i) =>
      token === undefined
        ? Promise.resolve()
        : extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: i, total: steps, message: `step ${i}/${steps}` },
          });
    const sent = release === 'lost-progress' ? steps - 1 : steps;
    if (release === 'buffered') {
      await sleep(steps * STEP_MS);
      for (let i = 1; i <= sent; i++) await notify(i);
    } else {
      for (let i = 1; i <= steps; i++) {
        if (i <= sent) await notify(i);
        await sleep(STEP_MS);
      }
    }
    return { content: [{ type: 'text', text: `counted to ${steps}` }] };
  });
  return server;
}

/** Serves one release over Streamable HTTP on 127.0.0.1, port 0 (stateful, with session ids). */
export async function startReleaseServer(release) {
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => sessions.set(sid, transport),
        onsessionclosed: (sid) => sessions.delete(sid),
      });
      await createReleaseServer(release).connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await Promise.allSettled([...sessions.values()].map((t) => t.close()));
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

if (process.argv[2] === '--stdio') {
  await createReleaseServer(process.argv[3] ?? 'v1').connect(new StdioServerTransport());
}

// `node release-server.mjs --http v1 compatible ...`: each release named on a port of its own,
// one `<release> <url>` line each on stdout; it serves until killed.
if (process.argv[2] === '--http') {
  for (const release of process.argv.slice(3)) {
    const { url } = await startReleaseServer(release);
    process.stdout.write(`${release} ${url}\n`);
  }
}
