import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import * as z from 'zod';

/** A 2025-era SDK v2 server whose `ask` tool asks the client `elicitation/create` during the call. */
export interface ElicitingServer {
  readonly url: string;
  /** What each `ask` call got back from the client, in order. */
  readonly answers: unknown[];
  close(): Promise<void>;
}

function buildServer(answers: unknown[]): McpServer {
  const server = new McpServer({ name: 'eliciting-fixture', version: '1.0.0' });
  server.registerTool(
    'ask',
    {
      description: 'asks the client a question (elicitation/create) and returns its answer',
      inputSchema: z.object({}),
    },
    async (_args, ctx) => {
      const answer = await ctx.mcpReq.elicitInput({
        message: 'Go ahead?',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      });
      answers.push(answer);
      return { content: [{ type: 'text', text: `answered: ${JSON.stringify(answer.content ?? answer.action)}` }] };
    },
  );
  return server;
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length > 0 ? Buffer.concat(chunks) : undefined;
}

/**
 * Starts an `@modelcontextprotocol/server` 2.4.0 server on 127.0.0.1:0 in the 2025 era, stateful
 * (`WebStandardStreamableHTTPServerTransport` with a session id generator, one per session), whose
 * tool `ask` sends the client `elicitation/create` on the call's stream and waits for the answer.
 */
export async function startElicitingServer(): Promise<ElicitingServer> {
  const answers: unknown[] = [];
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else if (Array.isArray(value)) headers.set(name, value.join(', '));
    }
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport) {
      const created = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => {
          sessions.set(sid, created);
        },
        onsessionclosed: (sid) => {
          sessions.delete(sid);
        },
      });
      await buildServer(answers).connect(created);
      transport = created;
    }
    const request = new Request(`http://127.0.0.1${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      ...(body !== undefined && { body: new Uint8Array(body) }),
    });
    const response = await transport.handleRequest(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) {
      res.end();
      return;
    }
    const reader = response.body.getReader();
    res.on('close', () => void reader.cancel().catch(() => undefined));
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        res.write(value);
      }
    } catch {
      // The client went away.
    }
    res.end();
  };
  const server = createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    answers,
    async close() {
      await Promise.allSettled([...sessions.values()].map((t) => t.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
