import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { AuditLog } from './audit-log.js';
import { connectReferenceServer } from './reference-server.js';

/** Options of {@link serveReferenceStdio}. */
export interface StdioServeOptions {
  /** @default process.stdin */
  readonly stdin?: Readable;
  /** @default process.stdout */
  readonly stdout?: Writable;
  /** The log to write to; a new one by default. */
  readonly audit?: AuditLog;
  /** Make `progress` fail at this step with `isError: true`, after a final notification. @default unset */
  readonly failAtStep?: number;
  /** Also serve the gateway check's extra tools (`progress_tight`, `multibyte_output`). @default false */
  readonly checkTools?: boolean;
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
 * else written there.
 *
 * @example
 * const { closed } = await serveReferenceStdio()
 * await closed
 */
export async function serveReferenceStdio(options: StdioServeOptions = {}): Promise<StdioReferenceServer> {
  const audit = options.audit ?? new AuditLog();
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  const server = await connectReferenceServer(transport, {
    audit,
    failAtStep: options.failAtStep,
    checkTools: options.checkTools ?? false,
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    stdin.once('end', () => {
      void server.close();
    });
  });
  return { audit, closed, close: () => server.close() };
}
