import { PassThrough, Writable } from 'node:stream';
import { readStdioMessage } from '../../http/read-request.js';
import { passthroughDiscover, stdioPassthroughHandshake } from '../../record/client-handshake.js';
import { SessionGoldens } from '../../record/session-goldens.js';
import { type StdioRecordingProxy, startStdioRecordingProxy } from '../../record/stdio-recording-proxy.js';
import type { StdioCommand } from '../../record/stdio-wire-session.js';
import { secretPatterns, stdioTargetSecrets } from '../../record/target-secrets.js';
import type { JsonRpcMessage } from '../../transcript/frame-content.js';
import { SECRET_HEADERS } from '../../transcript/redact.js';
import type { StdioFallback } from '../unmatched-fallback.js';
import { describePassed, type PassedThrough } from './relay.js';

/** The id of the live server's own initialize, kept apart from the client's ids. */
const INITIALIZE_ID = 'mcp-golden-passthrough-initialize';
/** The id of the live server's `server/discover` (2026-07-28 clients: no initialize), kept apart too. */
const DISCOVER_ID = 'mcp-golden-passthrough-discover';
/** Longest wait, once the client closed stdin, for the live answers still due. */
const DRAIN_LIMIT_MS = 10_000;

/** `replay --stdio --unmatched passthrough --target-stdio CMD`: the fallback and what it did. */
export interface StdioPassthrough {
  readonly fallback: StdioFallback;
  readonly passed: readonly PassedThrough[];
  /** Ends now (a signal): the answers still due are not waited for; the session is written. */
  stop(): Promise<void>;
  /** The goldens written (after the fallback's `end`). */
  readonly files: readonly string[];
}

const keyOf = (id: unknown): string => JSON.stringify(id);

/** The request a `notifications/cancelled` names. */
const cancelledId = (message: { params?: unknown }): unknown =>
  typeof message.params === 'object' && message.params !== null
    ? (message.params as { requestId?: unknown }).requestId
    : undefined;

/**
 * Passes the requests no golden matches in a stdio replay to a live stdio server: started at the
 * first miss (through the stdio recording proxy) and initialized with the client's own initialize
 * under an id of its own, it answers each miss; its lines go back to the client as they arrive
 * (progress included), except its answer to that initialize. When the client closes stdin and the
 * answers due have come (10 s at most), the server is stopped and the session written to `out` as
 * a new golden, redacted as `record` redacts.
 */
export function startStdioPassthrough(
  server: StdioCommand,
  out: string,
  log: Pick<Writable, 'write'>,
): StdioPassthrough {
  const secrets = stdioTargetSecrets(server.command, server.args ?? [], server.env);
  const label = server.label ?? secrets.label;
  const goldens = new SessionGoldens(out, 'passthrough', label, (line) => log.write(`${line}\n`));
  const passed: PassedThrough[] = [];
  const due = new Map<string, number>();
  const queued: string[] = [];
  let write: (line: string, answer: boolean) => void = () => undefined;
  let proxy: StdioRecordingProxy | undefined;
  let input: PassThrough | undefined;
  let ready = false;
  let buffered = '';
  let drained: (() => void) | undefined;
  /** Why the live server cannot take 2026-07-28 requests, once its `server/discover` said so. */
  let notModern: string | undefined;

  const settle = (key: string, outcome: string): void => {
    const index = due.get(key);
    if (index === undefined) return;
    due.delete(key);
    passed[index] = { ...(passed[index] as PassedThrough), outcome };
    if (due.size === 0) drained?.();
  };
  const fromServer = (line: string): void => {
    let message: { id?: unknown; method?: unknown; error?: unknown } | undefined;
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      message = undefined;
    }
    if (message?.id === DISCOVER_ID && message.method === undefined) {
      notModern = passthroughDiscover.refusal(
        message as JsonRpcMessage,
        JSON.stringify(message.error ?? (message as { result?: unknown }).result ?? null).slice(0, 200),
      );
      ready = notModern === undefined;
      for (const pending of queued.splice(0)) {
        if (ready) input?.write(pending);
        else refuse(pending);
      }
      return;
    }
    if (message?.id === INITIALIZE_ID && message.method === undefined) {
      stdioPassthroughHandshake.finish((line) => input?.write(line));
      ready = true;
      for (const pending of queued.splice(0)) input?.write(pending);
      return;
    }
    const answer = message !== undefined && 'id' in message && message.method === undefined;
    write(line, answer);
    if (answer) settle(keyOf(message?.id), message?.error === undefined ? 'answered' : 'answered with an error');
  };
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      buffered += chunk.toString('utf8');
      for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.trim() !== '') fromServer(line);
      }
      done();
    },
  });

  /** Answers a 2026-07-28 request the live server cannot take with the reason. */
  const refuse = (line: string): void => {
    const id = (JSON.parse(line) as { id?: unknown }).id;
    if (id === undefined) return;
    const message = passthroughDiscover.refusedMessage(`\`${label}\``, String(notModern), '--target-stdio');
    write(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message } }), true);
    settle(keyOf(id), passthroughDiscover.refusedOutcome);
  };

  const start = (initialize: string | undefined, modern: boolean): void => {
    input = new PassThrough();
    proxy = startStdioRecordingProxy({
      server: { ...server, label },
      input,
      output,
      redact: { headers: [...SECRET_HEADERS], patterns: secretPatterns(secrets.values) },
    });
    void proxy.ended.then(() => {
      // The client still waits for these: each gets an error naming the live server.
      for (const key of [...due.keys()]) {
        const message = `[mcp-golden] --unmatched passthrough: the live server \`${label}\` exited before it answered. Check that the command starts an MCP server on stdio, or replay with --unmatched error.`;
        write(
          JSON.stringify({ jsonrpc: '2.0', id: JSON.parse(key) as unknown, error: { code: -32603, message } }),
          true,
        );
        settle(key, 'failed: the live server exited');
      }
    });
    if (modern) {
      // A 2026-07-28 client sent no initialize: ask the live server whether it speaks that revision.
      input.write(`${JSON.stringify(passthroughDiscover.request(DISCOVER_ID))}\n`);
      return;
    }
    const upstream = input;
    stdioPassthroughHandshake.start((line) => upstream.write(line), initialize, INITIALIZE_ID);
  };

  const fallback: StdioFallback & { end(wait?: boolean): Promise<void> } = {
    forward(line, initialize, writeLine) {
      write = writeLine;
      const message = JSON.parse(line) as {
        jsonrpc: '2.0';
        id?: string | number;
        method?: string;
        params?: { name?: unknown; uri?: unknown; requestId?: unknown };
      };
      passed.push({ request: describePassed(message), outcome: 'pending' });
      if ('id' in message && typeof message.method === 'string') due.set(keyOf(message.id), passed.length - 1);
      const cancelled = message.method === 'notifications/cancelled' ? cancelledId(message) : undefined;
      // A cancelled request gets no answer from the live server: it is settled, not waited for.
      if (cancelled !== undefined) settle(keyOf(cancelled), 'cancelled by the client');
      if (!proxy) start(initialize, initialize === undefined && readStdioMessage(message).era === 'modern');
      if (notModern !== undefined) refuse(line);
      else if (ready) input?.write(`${line}\n`);
      else queued.push(`${line}\n`);
    },
    claims(message) {
      if (proxy === undefined) return false;
      // The client's answer to a request the live server sent during a passed-through call.
      if (typeof message.method !== 'string') return 'id' in message;
      const cancelled = message.method === 'notifications/cancelled' ? cancelledId(message) : undefined;
      return cancelled !== undefined && due.has(keyOf(cancelled));
    },
    async end(wait = true) {
      if (!proxy) return;
      if (wait && due.size > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve;
          setTimeout(resolve, DRAIN_LIMIT_MS).unref();
        });
      }
      for (const key of [...due.keys()]) settle(key, 'failed: no answer before stdin closed');
      input?.end();
      const recorded = await proxy.ended;
      // A server that does not speak the client's revision answered nothing worth a golden.
      if (notModern === undefined) await goldens.writeRest(recorded);
    },
  };
  return { fallback, passed, files: goldens.files, stop: () => fallback.end(false) };
}
