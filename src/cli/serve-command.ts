import { GoldenError } from '../errors.js';
import type { ReferenceServer } from '../server/http-server.js';
import { pathIn, stopRequested } from './cli-io.js';
import { defineCommand } from './command-spec.js';
import { LISTEN_OPTIONS } from './listen-options.js';

const MS = 3_600_000;

/** The reference server's options for `--era` (and `--modern-only`), over HTTP and stdio alike. */
function eraOptions(era: string | undefined, modernOnly: boolean): { legacy?: 'reject'; modern?: 'reject' } {
  if (modernOnly || era === 'modern') return { legacy: 'reject' };
  return era === 'legacy' ? { modern: 'reject' } : {};
}

/** `mcp-golden serve`: runs until SIGINT/SIGTERM (HTTP) or end of stdin (stdio). */
export const serveCommand = defineCommand({
  name: 'serve',
  summary: 'run the reference streaming server (HTTP or stdio)',
  description:
    'Runs the reference streaming server (tools: progress, long_output, chatty, audit_log), over HTTP or stdio, in the protocol eras --era names.',
  options: {
    stdio: {
      type: 'boolean',
      description:
        'serve newline-delimited JSON-RPC on stdin/stdout, in the eras --era names (2026-07-28: server/discover, the _meta envelope on every request, no initialize)',
    },
    ...LISTEN_OPTIONS,
    'json-response': {
      type: 'boolean',
      description: 'answer with one JSON body instead of SSE (progress is then dropped)',
    },
    'no-accel-header': { type: 'boolean', description: 'omit "X-Accel-Buffering: no" on SSE responses' },
    era: {
      type: 'string',
      value: 'ERA',
      choices: ['legacy', 'modern', 'dual'],
      description:
        "protocol eras served: legacy (2025-11-25 only: over HTTP a 2026-07-28 request gets 400 -32000 as from SDK v1's stateful transport; over stdio server/discover gets -32601), modern (2026-07-28 only: a 2025 initialize gets -32022 (HTTP 400), GET and DELETE 405, as SDK v2's legacy: 'reject'; over stdio server/discover, the _meta envelope on every request, no initialize) or dual (both; over stdio the first message picks the connection's era, as SDK v2's serveStdio) (default dual)",
    },
    'modern-only': {
      type: 'boolean',
      description: 'the same as --era modern',
    },
    'keep-alive': {
      type: 'string',
      value: 'MS',
      integer: { min: 0, max: MS },
      default: '0',
      description: 'send ": keepalive" SSE comments every MS ms (0: none)',
    },
    retry: {
      type: 'string',
      value: 'MS',
      integer: { min: 0, max: MS },
      default: '200',
      description: 'retry value in SSE priming events',
    },
    'fail-at-step': {
      type: 'string',
      value: 'N',
      integer: { min: 1, max: 100 },
      description: 'progress fails at step N: a final notification (progress == total), then isError',
    },
    'check-tools': {
      type: 'boolean',
      description:
        "also serve progress_tight, multibyte_output, input_round and silent_result (the gateway check's upstream)",
    },
    'audit-file': {
      type: 'string',
      value: 'PATH',
      description: 'with --stdio: append each audit row to PATH as a JSON line when its call ends',
    },
    'session-ttl': {
      type: 'string',
      value: 'MS',
      integer: { min: 100, max: 86_400_000 },
      description: 'close a session idle this long; its id then gets 404 (default 300000)',
    },
    'max-sessions': {
      type: 'string',
      value: 'N',
      integer: { min: 1, max: 1_000_000 },
      description: 'keep at most N sessions; a new one closes the least recently used idle one (default 1000)',
    },
  },
  async run(args, io) {
    const failAt = args.integer('fail-at-step');
    if (args.boolean('stdio')) {
      if (args.string('port') !== undefined) {
        throw new GoldenError('E_USAGE', 'Conflicting options: --stdio and --port. Use one transport.');
      }
      // Each transport loads only its own server: a gateway may start `serve --stdio` per session.
      const { serveReferenceStdio } = await import('../server/stdio-server.js');
      const auditFile = args.string('audit-file');
      const server = await serveReferenceStdio({
        stdin: io.stdin,
        stdout: io.stdout,
        log: io.stderr,
        checkTools: args.boolean('check-tools'),
        ...(auditFile !== undefined && { auditFile: pathIn(io, auditFile) }),
        ...(failAt !== undefined && { failAtStep: failAt }),
        ...eraOptions(args.string('era'), args.boolean('modern-only')),
      });
      // As the bin, a signal ends the process (its stdin would keep it alive after a close); in
      // process, an aborted io.signal closes the server.
      const stop = io.signal && stopRequested(io);
      await Promise.race([server.closed, ...(stop ? [stop.stopped.then(() => server.close())] : [])]);
      stop?.cancel();
      return 0;
    }
    if (args.string('audit-file') !== undefined) {
      throw new GoldenError(
        'E_USAGE',
        'Option --audit-file is for --stdio: over HTTP, every session shares one process, whose audit_log tool has every row.',
      );
    }
    const port = args.integer('port') ?? 0;
    const keepAliveMs = args.integer('keep-alive') ?? 0;
    const retryMs = args.integer('retry') ?? 200;
    const sessionTtlMs = args.integer('session-ttl');
    const maxSessions = args.integer('max-sessions');
    const { startReferenceServer } = await import('../server/http-server.js');
    let server: ReferenceServer;
    try {
      server = await startReferenceServer({
        port,
        jsonResponse: args.boolean('json-response'),
        accelHeader: !args.boolean('no-accel-header'),
        keepAliveMs,
        retryMs,
        ...(failAt !== undefined && { failAtStep: failAt }),
        checkTools: args.boolean('check-tools'),
        ...(sessionTtlMs !== undefined && { sessionTtlMs }),
        ...(maxSessions !== undefined && { maxSessions }),
        allowedOrigins: args.strings('allow-origin'),
        ...eraOptions(args.string('era'), args.boolean('modern-only')),
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') {
        throw new GoldenError(
          'E_USAGE',
          `Cannot listen on 127.0.0.1:${port}: the port is in use. Pick another with --port, or --port 0 for a free one.`,
        );
      }
      throw error;
    }
    io.stdout.write(`${server.url}\n`);
    io.stderr.write(`[mcp-golden] reference server listening on ${server.url} (Ctrl-C to stop)\n`);
    await stopRequested(io).stopped;
    await server.close();
    return 0;
  },
});
