import { appendFileSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { perRequestStdio, type StdioOut, serveStdioSide } from '../http/stdio-side.js';
import { AuditLog } from './audit-log.js';
import { holdForTurn } from './hold-for-turn.js';
import { type ModernRequest, referenceHasMethod, referenceModernAnswer, runModernCall } from './modern-answers.js';
import { connectWithHooks, noteCancelled, RunningCalls } from './reference-server.js';
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
 * The reference tools are a peer of the stdio answering side (`serveStdioSide`): its 2025 side is
 * the SDK v1 server, its 2026-07-28 side the reference answers per request, where a call's
 * progress and result are lines on the one pipe and `notifications/cancelled` stops it unanswered.
 *
 * @example
 * const { closed } = await serveReferenceStdio()
 * await closed
 */
export async function serveReferenceStdio(options: StdioServeOptions = {}): Promise<StdioReferenceServer> {
  const audit = options.audit ?? new AuditLog();
  if (options.auditFile !== undefined) appendAuditRows(audit, options.auditFile, options.log ?? process.stderr);
  const stdout = options.stdout ?? process.stdout;
  const hooks = {
    audit,
    failAtStep: options.failAtStep,
    checkTools: options.checkTools ?? false,
    holdWrites: () => holdForTurn(stdout),
  };
  let write: StdioOut = async () => undefined;
  // The SDK v1 server's transport: the router hands it the 2025 messages, it writes through the router.
  const channel: Transport = {
    start: async () => undefined,
    send: (message) => write(message as Record<string, unknown>, !('method' in message)),
    close: async () => channel.onclose?.(),
  };
  const server = await connectWithHooks(channel, hooks);
  const tasks = new TaskStore();
  const modernOptions = { ...hooks, tasks };
  const running = new RunningCalls();
  const side = serveStdioSide(
    {
      stdin: options.stdin ?? process.stdin,
      stdout,
      eras: { legacy: options.legacy ?? 'serve', modern: options.modern ?? 'serve' },
    },
    (out) => {
      write = out;
      const modern = perRequestStdio(
        {
          hasMethod: (method) => referenceHasMethod(method, hooks.checkTools),
          cancelling: (requestId, reason) => noteCancelled(running, audit, requestId, reason),
          async answer(message, cancelled) {
            const answered = referenceModernAnswer(message as ModernRequest, null, {}, modernOptions);
            if (answered !== 'run') return answered;
            return runModernCall(message as ModernRequest, modernOptions, running, cancelled, (params) =>
              out({ jsonrpc: '2.0', method: 'notifications/progress', params }),
            );
          },
        },
        out,
      );
      // stdin ended or the server closed: every call still running stops unanswered, as `serveStdio` does.
      const stop = (): void => {
        void server.close();
        modern.close();
        tasks.close();
      };
      return {
        legacy: (message) => channel.onmessage?.(message as JSONRPCMessage),
        modern: modern.receive,
        end: stop,
        close: stop,
      };
    },
  );
  return { audit, closed: side.closed, close: async () => side.close() };
}

/** Appends each audit row, as its call ends, to `file` (see {@link StdioServeOptions.auditFile}). */
function appendAuditRows(audit: AuditLog, file: string, log: Writable): void {
  let failed = false;
  audit.onSettled((entry) => {
    try {
      // One write per line with O_APPEND: lines from several processes do not interleave.
      appendFileSync(file, `${JSON.stringify({ pid: process.pid, entry })}\n`);
    } catch (error) {
      if (failed) return;
      failed = true;
      log.write(
        `[mcp-golden] cannot append to the audit file ${file}: ${(error as Error).message}. Serving on without it; check that its folder exists and is writable.\n`,
      );
    }
  });
}
