import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readGolden } from '../../../src/store/golden-file.js';
import type { Transcript } from '../../../src/transcript/frame.js';
import { frameMessage, type JsonRpcMessage } from '../../../src/transcript/frame-content.js';
import { CLI } from '../../support/cli.js';
import { startInProcess } from '../../support/in-process-cli.js';

const GOLDENS = fileURLToPath(new URL('../../../goldens', import.meta.url));
const files = (await readdir(GOLDENS)).filter((f) => f.endsWith('.jsonl')).sort();
const goldens: [string, Transcript][] = [];
for (const file of files) goldens.push([file, await readGolden(join(GOLDENS, file))]);

/** What a golden says its `tools/call` got: the answer, the progress count, the cancel step. */
interface Expected {
  readonly call: JsonRpcMessage;
  readonly answer: JsonRpcMessage | undefined;
  readonly progress: number;
  readonly cancelAfter: number | undefined;
}

function expectedOf(golden: Transcript): Expected {
  const messages = golden.frames.filter((f) => f.dir === 'server->client').map(frameMessage);
  const call = golden.frames
    .filter((f) => f.dir === 'client->server')
    .map(frameMessage)
    .find((m) => m?.method === 'tools/call') as JsonRpcMessage;
  const cancelAfter = golden.header.notes?.cancelAfter;
  return {
    call,
    answer: messages.find((m) => m && m.id === call.id && ('result' in m || 'error' in m)),
    progress: messages.filter((m) => m?.method === 'notifications/progress').length,
    cancelAfter: typeof cancelAfter === 'number' ? cancelAfter : undefined,
  };
}

/**
 * Counts progress notifications as they reach the client's transport. The SDK's `onprogress` is
 * not a count: it handles notifications a tick later than the result, so when both arrive in one
 * read (a fast stdio pipe) the last callbacks are dropped.
 */
interface WireProgress {
  count: number;
  onProgress: (() => void) | undefined;
  /** Set once the client has cancelled: notifications read after that (in flight, or in the same read) are not counted. */
  cancelled: boolean;
}

function wireProgress(transport: Transport): WireProgress {
  const wire: WireProgress = { count: 0, onProgress: undefined, cancelled: false };
  // Only the current call's token counts: a cancelled call's last notification may still be in flight.
  let token: unknown;
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('method' in message && message.method === 'tools/call') {
      token = (message.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta?.progressToken;
    }
    return send(message, options);
  };
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const params = 'method' in message ? (message.params as { progressToken?: unknown } | undefined) : undefined;
    const isProgress = 'method' in message && message.method === 'notifications/progress';
    if (isProgress && params?.progressToken === token && !wire.cancelled) {
      wire.count++;
      wire.onProgress?.();
    }
    deliver?.(message, extra);
  };
  return wire;
}

/** Calls a golden's tool the way the SDK client does, and checks it gets what the golden got. */
async function callLikeGolden(client: Client, wire: WireProgress, golden: Transcript): Promise<void> {
  const expected = expectedOf(golden);
  const params = expected.call.params as { name: string; arguments?: Record<string, unknown>; _meta?: object };
  const hasToken = params._meta !== undefined && 'progressToken' in params._meta;
  const abort = new AbortController();
  wire.count = 0;
  wire.cancelled = false;
  wire.onProgress = () => {
    if (wire.count !== expected.cancelAfter) return;
    // A loaded machine may hand the client the next notifications in the same read: they were sent
    // before the cancel could arrive, so they are not counted against the replay.
    wire.cancelled = true;
    abort.abort('cancel after golden step');
  };
  const options = { signal: abort.signal, ...(hasToken && { onprogress: () => undefined }) };
  const outcome = await client
    .callTool({ name: params.name, arguments: params.arguments ?? {} }, undefined, options)
    .then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
  expect(wire.count, 'progress notifications').toBe(expected.cancelAfter ?? expected.progress);
  if (expected.cancelAfter !== undefined) {
    expect('error' in outcome).toBe(true);
    return;
  }
  const answer = expected.answer as JsonRpcMessage;
  if ('result' in answer) {
    expect('result' in outcome ? outcome.result : outcome.error).toEqual(answer.result);
    return;
  }
  const recorded = answer.error as { code: number; message: string };
  const error = 'error' in outcome ? outcome.error : undefined;
  expect(error).toBeInstanceOf(McpError);
  expect((error as McpError).code).toBe(recorded.code);
  // One "MCP error" prefix: the SDK's own, never a second from the replay.
  expect((error as McpError).message).toBe(`MCP error ${recorded.code}: ${recorded.message}`);
}

async function listsRecordedTools(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['progress', 'long_output', 'chatty']));
}

describe('the SDK Client against `mcp-golden replay goldens/` (the whole mixed directory)', () => {
  let http: Awaited<ReturnType<typeof startInProcess>>;
  beforeAll(async () => {
    http = await startInProcess(['replay', GOLDENS, '--port', '0', '--pace', '0.25']);
  });
  afterAll(async () => {
    await http?.stop();
  });

  test('over Streamable HTTP: connects, lists tools, and every scenario gets its golden answer and progress', async () => {
    const client = new Client({ name: 'sdk-http', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(http.firstLine));
    await client.connect(transport);
    const wire = wireProgress(transport);
    try {
      await listsRecordedTools(client);
      for (const [file, golden] of goldens) {
        await expect(callLikeGolden(client, wire, golden), file).resolves.toBeUndefined();
      }
    } finally {
      await client.close();
    }
  }, 60_000);

  test('over stdio: connects, lists tools, and every scenario gets its golden answer and progress', async () => {
    const client = new Client({ name: 'sdk-stdio', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'replay', '--stdio', GOLDENS, '--pace', '0.25'],
    });
    await client.connect(transport);
    const wire = wireProgress(transport);
    try {
      await listsRecordedTools(client);
      for (const [file, golden] of goldens) {
        await expect(callLikeGolden(client, wire, golden), file).resolves.toBeUndefined();
      }
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('one golden served over the other transport', () => {
  const stdioGolden = join(GOLDENS, 'progress-stdio.jsonl');
  const httpGolden = join(GOLDENS, 'progress-10x100.jsonl');

  test('a stdio golden over HTTP is proper Streamable HTTP: SSE, a session id, the golden answer', async () => {
    const replay = await startInProcess(['replay', stdioGolden, '--port', '0', '--pace', 'instant']);
    try {
      const init = await fetch(replay.firstLine, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      });
      expect(init.status).toBe(200);
      expect(init.headers.get('content-type')).toBe('text/event-stream');
      expect(init.headers.get('mcp-session-id')).toMatch(/^replay-session-\d+-[0-9a-f]{24}$/);
      expect(await init.text()).toMatch(/^id: \S+\nevent: message\ndata: \{"result":\{"protocolVersion":"2025-11-25"/);
      const client = new Client({ name: 'sdk-http', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(replay.firstLine));
      await client.connect(transport);
      await listsRecordedTools(client);
      await callLikeGolden(client, wireProgress(transport), await readGolden(stdioGolden));
      await client.close();
    } finally {
      await replay.stop();
    }
  });

  test('an HTTP golden over stdio is newline-delimited JSON-RPC with the golden answer', async () => {
    const client = new Client({ name: 'sdk-stdio', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'replay', '--stdio', httpGolden, '--pace', 'instant'],
    });
    await client.connect(transport);
    try {
      await listsRecordedTools(client);
      await callLikeGolden(client, wireProgress(transport), await readGolden(httpGolden));
    } finally {
      await client.close();
    }
  });
});
