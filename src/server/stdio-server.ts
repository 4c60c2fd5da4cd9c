import { appendFileSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { AuditLog } from './audit-log.js';
import { holdForTurn } from './hold-for-turn.js';
import { connectWithHooks } from './reference-server.js';

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
  const server = await connectWithHooks(transport, {
    audit,
    failAtStep: options.failAtStep,
    checkTools: options.checkTools ?? false,
    holdWrites: () => holdForTurn(stdout),
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    stdin.once('end', () => {
      void server.close();
    });
  });
  return { audit, closed, close: () => server.close() };
}
