// An @modelcontextprotocol/server 2.4.0 server on stdio (serveStdio), 2025 era: its tool `ask`
// sends the client its own requests during the call, `elicitation/create` then `roots/list`, and
// returns both answers in its text.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

serveStdio(() => {
  const server = new McpServer({ name: 'eliciting-stdio-fixture', version: '1.0.0' });
  server.registerTool('ask', { inputSchema: z.object({}) }, async (_args, ctx) => {
    const elicited = await ctx.mcpReq.elicitInput({
      message: 'Go ahead?',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    });
    const roots = await server.server.listRoots();
    const text = `answered: ${JSON.stringify(elicited.content ?? elicited.action)} roots: ${roots.roots.map((r) => r.uri).join(',')}`;
    return { content: [{ type: 'text', text }] };
  });
  return server;
});
