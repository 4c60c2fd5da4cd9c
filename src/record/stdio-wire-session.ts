import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { describeError, GoldenError } from '../errors.js';
import { spawnGroup } from '../process/child-group.js';
import type { Frame } from '../transcript/frame.js';
import { frameMessage, type JsonRpcMessage } from '../transcript/frame-content.js';
import { paramsOf, parseJsonRpc, requestProgressToken } from '../transcript/json-rpc.js';
import type { FrameSink } from './frame-sink.js';
import { withTimeout } from './http-wire-session.js';
import type { CallStream, StreamedMessage, WireSession } from './wire-session.js';

/** A command that starts an MCP server on stdio. */
export interface StdioCommand {
  readonly command: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** How the command is named in transcript headers (a stable name instead of an absolute path). */
  readonly label?: string;
}

const encoder = new TextEncoder();

class LineStream implements CallStream {
  readonly lastEventId = undefined;
  readonly retryMs = undefined;
  readonly queue: StreamedMessage[] = [];
  private wake: (() => void) | undefined;
  dropped = false;
  ended = false;
  failure: GoldenError | undefined;

  constructor(private readonly what: string) {}

  deliver(message: JsonRpcMessage): void {
    if (this.dropped) return;
    this.queue.push({ message });
    this.wake?.();
  }

  /** No more lines will come; `failure` says why when the server went away. */
  finish(failure?: GoldenError): void {
    this.ended = true;
    this.failure ??= failure;
    this.wake?.();
  }

  async next(timeoutMs: number): Promise<StreamedMessage | undefined> {
    if (this.queue.length === 0 && !this.ended && !this.dropped) {
      await withTimeout(new Promise<void>((resolve) => (this.wake = resolve)), timeoutMs, this.what);
      this.wake = undefined;
    }
    if (this.queue.length === 0 && this.failure && !this.dropped) throw this.failure;
    return this.queue.shift();
  }

  async drop(): Promise<void> {
    this.dropped = true;
    this.wake?.();
  }

  close(): Promise<void> {
    return this.drop();
  }
}

const keyOf = (value: unknown): string => `${typeof value}:${String(value)}`;

/**
 * Starts `command` as a child process and talks MCP to it over stdio, recording every line in
 * both directions (a stdio tee). The child is stopped by `close()`.
 */
export function openStdioSession(target: StdioCommand, sink: FrameSink): WireSession {
  // Its own process group, so a shell wrapper's children stop with it, and a signal to the CLI stops it.
  const group = spawnGroup(target.command, [...(target.args ?? [])], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...target.env },
    ...(target.cwd !== undefined && { cwd: target.cwd }),
  });
  const child = group.child as ChildProcessWithoutNullStreams;
  const describe = target.label ?? [target.command, ...(target.args ?? [])].join(' ');
  const toServer = sink.body(0, 'client->server', 'stdio');
  const fromServer = sink.body(0, 'server->client', 'stdio');
  const byId = new Map<string, LineStream>();
  const byToken = new Map<string, LineStream>();
  let latest: LineStream | undefined;
  let stderr = '';
  let exited: string | undefined;
  let buffered = '';
  let closing = false;
  // One decoder for the whole stream: a character split across two reads must not become U+FFFD.
  const utf8 = new StringDecoder('utf8');

  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    stderr = (stderr + text).slice(-4000);
  });
  child.stdout.on('data', (chunk: Buffer) => {
    fromServer.read(new Uint8Array(chunk));
    buffered += utf8.write(chunk);
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      route(line);
      newline = buffered.indexOf('\n');
    }
  });
  // EPIPE when the server is gone: remember it (the exit is reported) instead of crashing.
  child.stdin.on('error', (error) => {
    exited ??= `closed its stdin (${describeError(error)})`;
  });
  const failure = (): GoldenError => gone(describe, target.command, exited ?? 'exited', stderr);
  child.on('error', (error: NodeJS.ErrnoException) => {
    exited = error.code === 'ENOENT' ? 'ENOENT' : `could not be started (${error.message})`;
    for (const stream of byId.values()) stream.finish(failure());
  });
  child.on('exit', (code, signal) => {
    // How it ended says more than the EPIPE a write met on the way.
    if (exited === undefined || exited.startsWith('closed its stdin'))
      exited = `exited with ${signal ?? `code ${code}`}`;
    fromServer.end('complete');
    // Let the last stderr bytes arrive before the error quotes them.
    setTimeout(() => {
      for (const stream of byId.values()) stream.finish(closing ? undefined : failure());
    }, 50);
  });

  function route(line: string): void {
    const message = parseJsonRpc(line);
    if (!message) return;
    const params = paramsOf(message);
    if ('id' in message && !('method' in message)) byId.get(keyOf(message.id))?.deliver(message);
    else if ('progressToken' in params) byToken.get(keyOf(params.progressToken))?.deliver(message);
    // A server request (sampling, elicitation, roots) is answered by whoever waits for a response now.
    else if ('id' in message) latest?.deliver(message);
  }

  function write(message: JsonRpcMessage): void {
    if (exited) throw failure();
    const bytes = encoder.encode(`${JSON.stringify(message)}\n`);
    toServer.read(bytes);
    child.stdin.write(bytes);
  }

  return {
    transport: 'stdio',
    async request(message) {
      const stream = new LineStream(`Waiting for the answer to ${String(message.method)} from "${describe}"`);
      byId.set(keyOf(message.id), stream);
      latest = stream;
      const token = requestProgressToken(message);
      if (token.present) byToken.set(keyOf(token.token), stream);
      write(message);
      return stream;
    },
    async notify(message) {
      write(message);
    },
    async resume() {
      throw new GoldenError(
        'E_SCENARIO',
        'Resuming a stream needs Streamable HTTP; stdio has no Last-Event-ID. Run this scenario against an HTTP target.',
      );
    },
    async close() {
      closing = true;
      toServer.end('complete');
      // End of stdin is the polite stop; then the whole group gets SIGTERM and, later, SIGKILL.
      child.stdin.end();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([group.exit, new Promise((resolve) => (timer = setTimeout(resolve, 2000)))]);
      clearTimeout(timer);
      await group.stop(2000);
    },
  };
}

/** The error for a stdio server that is gone: a missing command named, or an early exit with its stderr. */
function gone(describe: string, command: string, how: string, stderr: string): GoldenError {
  if (how === 'ENOENT') {
    return new GoldenError(
      'E_TARGET',
      `Cannot start the stdio server "${describe}": the command "${command}" was not found (ENOENT). Expected an executable on PATH or a path to one. Install it, or give its full path in --stdio.`,
    );
  }
  const tail = stderr.trim().split('\n').slice(-10).join('\n');
  return new GoldenError(
    'E_TARGET',
    `The stdio server "${describe}" ${how} before the recording finished. Expected it to keep serving MCP on stdin/stdout. Its stderr ended with:\n${tail || '(nothing)'}\nRun the command by hand to see why it stops.`,
  );
}

/**
 * Assigns stdio frames to exchanges after the fact: each request opens an exchange; responses,
 * progress notifications (by token) and cancellations (by request id) join their request's
 * exchange; a read joins the exchange of the line it completed.
 */
export function assignStdioExchanges(frames: readonly Frame[]): Frame[] {
  const byId = new Map<string, number>();
  const byToken = new Map<string, number>();
  // Requests in flight, by exchange: a server's own request (sampling, elicitation) belongs to the
  // client call it serves, as it does on an HTTP call's SSE stream.
  const open: number[] = [];
  let next = 0;
  const out = frames.map((frame): Frame => {
    if (frame.channel !== 'stdio') return frame;
    const message = frameMessage(frame);
    if (!message) return frame;
    const params = paramsOf(message);
    let exchange = 0;
    if ('method' in message && 'id' in message && frame.dir === 'server->client') {
      exchange = open.at(-1) ?? 0;
    } else if ('method' in message && 'id' in message) {
      exchange = ++next;
      open.push(exchange);
      byId.set(keyOf(message.id), exchange);
      const token = requestProgressToken(message);
      if (token.present) byToken.set(keyOf(token.token), exchange);
    } else if ('id' in message && frame.dir === 'client->server') {
      // The client's answer to a server request travels on its own, as an HTTP client's POST does.
      exchange = ++next;
    } else if ('id' in message) {
      exchange = byId.get(keyOf(message.id)) ?? 0;
      open.splice(open.indexOf(exchange) >>> 0, open.includes(exchange) ? 1 : 0);
    } else if ('progressToken' in params) exchange = byToken.get(keyOf(params.progressToken)) ?? 0;
    else if ('requestId' in params) exchange = byId.get(keyOf(params.requestId)) ?? 0;
    return { ...frame, exchange };
  });
  // A read belongs with the next line completed in the same direction.
  for (let i = out.length - 1, later = new Map<string, number>(); i >= 0; i--) {
    const frame = out[i] as Frame;
    if (frame.channel === 'stdio') later.set(frame.dir, frame.exchange);
    else if (frame.channel === 'read' && frame.exchange === 0)
      out[i] = { ...frame, exchange: later.get(frame.dir) ?? 0 };
  }
  return out;
}
