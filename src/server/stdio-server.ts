import { appendFileSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { jsonRpcErrorOf, readStdioMessage, type StdioPhase } from '../http/read-request.js';
import { AuditLog } from './audit-log.js';
import { holdForTurn } from './hold-for-turn.js';
import { createModernStdio } from './modern-stdio.js';
import { connectWithHooks } from './reference-server.js';
import { TaskStore } from './tasks-extension.js';

/** Options of {@link serveReferenceStdio}. */
export interface StdioServeOptions {
  /** @default process.stdin */
  readonly stdin?: Readable;
  /** @default process.stdout */
  readonly stdout?: Writable;
  /** Where a note about the audit file goes. @default process.stderr */
  readonly log?: Writable;
  /** The log to write to; a new one by default. */
  readonly audit?: AuditLog;
  /** Make `progress` fail at this step with `isError: true`, after a final notification. @default unset */
  readonly failAtStep?: number;
  /** Also serve the gateway check's extra tools (`progress_tight`, `multibyte_output`). @default false */
  readonly checkTools?: boolean;
  /**
   * Appends each audit row, as its call ends, to this file as a JSON line `{"pid":…,"entry":{…}}`.
   * Every upstream process a gateway starts can share one file: the gateway check reads it to see
   * calls that reached a process it cannot ask (a gateway that starts one upstream per session).
   */
  readonly auditFile?: string;
  /**
   * `reject`: 2026-07-28 only, as the SDK v2 2.4.0 `serveStdio` with `legacy: 'reject'`: a 2025
   * opening (`initialize`, a request without the envelope) gets `-32022` and the connection waits
   * for a 2026-07-28 one. @default 'serve'
   */
  readonly legacy?: 'serve' | 'reject';
  /**
   * `reject`: 2025-11-25 only, as an SDK v1 1.32 stdio server, which reads no envelope (a
   * `server/discover` gets `-32601`). @default 'serve': the opening message picks the era, as
   * `serveStdio` does
   */
  readonly modern?: 'serve' | 'reject';
}

/** A reference server running on a pair of streams. */
export interface StdioReferenceServer {
  readonly audit: AuditLog;
  /** Resolves when stdin ends or {@link StdioReferenceServer.close} is called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves the reference streaming tools over stdio: newline-delimited JSON-RPC on stdout, nothing
 * else written there. Both protocol eras by default, the connection's era picked by its first
 * message as the SDK v2 `serveStdio` picks it (`legacy: 'reject'` or `modern: 'reject'` for one).
 *
 * @example
 * const { closed } = await serveReferenceStdio()
 * await closed
 */
export async function serveReferenceStdio(options: StdioServeOptions = {}): Promise<StdioReferenceServer> {
  const audit = options.audit ?? new AuditLog();
  const { auditFile } = options;
  if (auditFile !== undefined) {
    let failed = false;
    audit.onSettled((entry) => {
      try {
        // One write per line with O_APPEND: lines from several processes do not interleave.
        appendFileSync(auditFile, `${JSON.stringify({ pid: process.pid, entry })}\n`);
      } catch (error) {
        if (failed) return;
        failed = true;
        (options.log ?? process.stderr).write(
          `[mcp-golden] cannot append to the audit file ${auditFile}: ${(error as Error).message}. Serving on without it; check that its folder exists and is writable.\n`,
        );
      }
    });
  }
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const transport = new StdioServerTransport(stdin, stdout);
  const hooks = {
    audit,
    failAtStep: options.failAtStep,
    checkTools: options.checkTools ?? false,
    holdWrites: () => holdForTurn(stdout),
  };
  const server = await connectWithHooks(transport, hooks);
  const tasks = new TaskStore();
  const modern = createModernStdio({ ...hooks, tasks, send: (message) => transport.send(message as JSONRPCMessage) });
  routeByEra(transport, options, modern);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => {
      modern.close();
      tasks.close();
      resolve();
    };
    stdin.once('end', () => {
      void server.close();
    });
  });
  return { audit, closed, close: () => server.close() };
}

/**
 * Hands each message to the side of its era, as the reader reads it on this connection: the 2025
 * side is the SDK v1 server the transport was connected to, the 2026-07-28 side `modern`; a refused
 * request is answered here, a refused notification dropped.
 */
function routeByEra(
  transport: Transport,
  options: Pick<StdioServeOptions, 'legacy' | 'modern'>,
  modern: ReturnType<typeof createModernStdio>,
): void {
  const legacySide = transport.onmessage;
  const eras = { legacy: options.legacy ?? 'serve', modern: options.modern ?? 'serve' } as const;
  let phase: StdioPhase = 'opening';
  transport.onmessage = (message, extra) => {
    const read = readStdioMessage(message, eras, phase);
    phase = read.phase;
    if (read.refusal) {
      if (read.kind === 'request') void transport.send(jsonRpcErrorOf(read.id, read.refusal) as JSONRPCMessage);
      return;
    }
    if (read.era === 'modern') modern.receive(message, read);
    else legacySide?.(message, extra);
  };
}
