// An @modelcontextprotocol/server 2.4.0 server on stdio (serveStdio), modern-only: a `progress`
// tool that stops when its request is cancelled, and writes "aborted <steps>" to stderr then.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

serveStdio(
  () => {
    const server = new McpServer({ name: 'sdk-v2-stdio-fixture', version: '1.0.0' });
    server.registerTool(
      'progress',
      { inputSchema: z.object({ steps: z.number().int(), step_ms: z.number().int() }) },
      async ({ steps, step_ms }, ctx) => {
        const token = ctx.mcpReq._meta?.progressToken;
        let done = 0;
        for (let i = 1; i <= steps && !ctx.mcpReq.signal.aborted; i++) {
          if (token !== undefined) {
            await ctx.mcpReq.notify({
              method: 'notifications/progress',
              params: { progressToken: token, progress: i, total: steps },
            });
          }
          done = i;
          await new Promise((resolve) => setTimeout(resolve, step_ms));
        }
        if (ctx.mcpReq.signal.aborted) process.stderr.write(`aborted ${done}\n`);
        return { content: [{ type: 'text', text: JSON.stringify({ steps, notified: done }) }] };
      },
    );
    return server;
  },
  { legacy: 'reject' },
);
