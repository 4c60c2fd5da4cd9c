import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { acceptedContent, createMcpHandler, inputRequired, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

/** What a tool handler of the SDK v2 fixture saw of one call. */
export interface SdkV2Call {
  readonly tool: string;
  /** Progress steps sent before the call ended. */
  readonly steps: number;
  /** The handler saw its request's abort signal fire (the client closed the stream). */
  readonly aborted: boolean;
  /** The `inputResponses` the call arrived with, if any. */
  readonly inputResponses?: unknown;
}

/** Options of {@link startSdkV2Server}. */
export interface SdkV2ServerOptions {
  /** `reject`: modern-only (2026-07-28); `stateless`: both eras (the SDK's dual-era default). */
  readonly legacy: 'reject' | 'stateless';
  /** Remove `X-Accel-Buffering: no` from the SDK's SSE responses (a server that omits it). @default false */
  readonly omitAccelHeader?: boolean;
  /** The word `confirm` answers with (a server whose output changed). @default 'confirmed' */
  readonly confirmWord?: string;
  /** The SDK's SSE keep-alive interval (`: keepalive` comments), `0` for none. @default 0 */
  readonly keepAliveMs?: number;
}

/** An `@modelcontextprotocol/server` 2.4.0 server on 127.0.0.1, served through `createMcpHandler`. */
export interface SdkV2Server {
  readonly url: string;
  /** Every tool call as its handler saw it, in the order they ended. */
  readonly calls: SdkV2Call[];
  close(): Promise<void>;
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** The fixture's tools, registered on a fresh SDK v2 `McpServer` for each request (the factory). */
function buildServer(calls: SdkV2Call[], confirmWord: string): McpServer {
  const server = new McpServer({ name: 'sdk-v2-fixture', version: '1.0.0' });
  server.registerTool(
    'progress',
    {
      description: 'steps progress notifications, step_ms apart; stops when the request is aborted',
      inputSchema: z.object({ steps: z.number().int().min(1).max(100), step_ms: z.number().int().min(1).max(5000) }),
    },
    async ({ steps, step_ms }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      let done = 0;
      for (let i = 1; i <= steps && !ctx.mcpReq.signal.aborted; i++) {
        if (token !== undefined) {
          await ctx.mcpReq
            .notify({
              method: 'notifications/progress',
              params: { progressToken: token, progress: i, total: steps, message: `step ${i}/${steps}` },
            })
            .catch(() => undefined);
        }
        done = i;
        await sleep(step_ms, ctx.mcpReq.signal);
      }
      const aborted = ctx.mcpReq.signal.aborted;
      calls.push({ tool: 'progress', steps: done, aborted });
      return {
        content: [{ type: 'text', text: JSON.stringify({ steps, notified: done, done: !aborted }) }],
        structuredContent: { steps, notified: done, done: !aborted },
      };
    },
  );
  server.registerTool(
    'confirm',
    { description: 'asks the client to confirm (one input_required round)', inputSchema: z.object({}) },
    async (_args, ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
      if (answer === undefined) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: 'Go ahead?',
              requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
            }),
          },
          requestState: 'round-1',
        });
      }
      calls.push({ tool: 'confirm', steps: 0, aborted: false, inputResponses: ctx.mcpReq.inputResponses });
      return { content: [{ type: 'text', text: `${confirmWord}: ${JSON.stringify(answer)}` }] };
    },
  );
  server.registerTool(
    'greet',
    {
      description: 'greets by name; the name is mirrored in the Mcp-Param-Name header (x-mcp-header)',
      inputSchema: z.object({ name: z.string().meta({ 'x-mcp-header': 'Name' }) }),
    },
    async ({ name }) => ({ content: [{ type: 'text', text: `hello, ${name}` }] }),
  );
  return server;
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length > 0 ? Buffer.concat(chunks) : undefined;
}

/**
 * Starts an SDK v2 server (`createMcpHandler(factory, { legacy })`) on 127.0.0.1:0, with its own
 * node:http adapter: the web `Request` it hands the SDK carries an abort signal that fires when the
 * client goes away before the response ended, so a closed stream reaches the handler as an abort.
 */
export async function startSdkV2Server(options: SdkV2ServerOptions): Promise<SdkV2Server> {
  const calls: SdkV2Call[] = [];
  const handler = createMcpHandler(() => buildServer(calls, options.confirmWord ?? 'confirmed'), {
    legacy: options.legacy,
    keepAliveMs: options.keepAliveMs ?? 0,
  });
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
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
    const request = new Request(`http://127.0.0.1${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      ...(body !== undefined && { body: new Uint8Array(body) }),
      signal: gone.signal,
    });
    const response = await handler.fetch(request);
    const head = Object.fromEntries(response.headers);
    if (options.omitAccelHeader) delete head['x-accel-buffering'];
    res.writeHead(response.status, head);
    if (!response.body) {
      res.end();
      return;
    }
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
    serve(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Scenarios for the fixture's tools: progress, an input_required round, a cancel after progress 2. */
export const SDK_V2_SCENARIOS = [
  { name: 'modern-progress', tool: 'progress', arguments: { steps: 4, step_ms: 30 }, progressToken: 'm-1' },
  {
    name: 'modern-confirm',
    tool: 'confirm',
    answers: { 'elicitation/create': { action: 'accept', content: { ok: true } } },
  },
  {
    name: 'modern-cancel',
    tool: 'progress',
    arguments: { steps: 40, step_ms: 50 },
    progressToken: 9,
    cancelAfter: 2,
  },
];
