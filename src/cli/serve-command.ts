import { parseArgs } from 'node:util';
import { GoldenError } from '../errors.js';
import { startReferenceServer } from '../server/http-server.js';
import { serveReferenceStdio } from '../server/stdio-server.js';
import { parseIntegerOption } from './parse-integer-option.js';

export const SERVE_USAGE = `Usage: mcp-golden serve [--stdio | --port N] [--json-response] [--no-accel-header]
                        [--keep-alive MS] [--retry MS] [--fail-at-step N] [--check-tools]
                        [--session-ttl MS] [--max-sessions N] [--allow-origin ORIGIN]...

Runs the reference streaming server (tools: progress, long_output, chatty, audit_log).
  --stdio            serve newline-delimited JSON-RPC on stdin/stdout
  --port N           listen on 127.0.0.1:N (default 0: a free port); prints the URL on stdout
  --json-response    answer with one JSON body instead of SSE (progress is then dropped)
  --no-accel-header  omit "X-Accel-Buffering: no" on SSE responses
  --keep-alive MS    send ": keepalive" SSE comments every MS ms (default 0: none)
  --retry MS         retry value in SSE priming events (default 200)
  --fail-at-step N   progress fails at step N: a final notification (progress == total), then isError
  --check-tools      also serve progress_tight and multibyte_output (the gateway check's upstream)
  --session-ttl MS   close a session idle this long; its id then gets 404 (default 300000)
  --max-sessions N   keep at most N sessions; a new one closes the least recently used idle
                     one (default 1000)
  --allow-origin O   also accept browser requests from origin O (repeatable; * for any).
                     Loopback origins are always accepted, others get 403 (DNS rebinding)`;

/** `mcp-golden serve`: runs until SIGINT/SIGTERM (HTTP) or end of stdin (stdio). */
export async function serveCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      stdio: { type: 'boolean', default: false },
      port: { type: 'string' },
      'json-response': { type: 'boolean', default: false },
      'no-accel-header': { type: 'boolean', default: false },
      'keep-alive': { type: 'string' },
      retry: { type: 'string' },
      'fail-at-step': { type: 'string' },
      'check-tools': { type: 'boolean', default: false },
      'session-ttl': { type: 'string' },
      'max-sessions': { type: 'string' },
      'allow-origin': { type: 'string', multiple: true },
    },
    strict: true,
  });
  const failAt = parseIntegerOption('fail-at-step', values['fail-at-step'], 1, 100);
  if (values.stdio) {
    if (values.port !== undefined) {
      throw new GoldenError('E_USAGE', 'Conflicting options: --stdio and --port. Use one transport.');
    }
    const server = await serveReferenceStdio({
      checkTools: values['check-tools'],
      ...(failAt !== undefined && { failAtStep: failAt }),
    });
    await server.closed;
    return 0;
  }
  const port = parseIntegerOption('port', values.port, 0, 65535) ?? 0;
  const keepAliveMs = parseIntegerOption('keep-alive', values['keep-alive'], 0, 3_600_000) ?? 0;
  const retryMs = parseIntegerOption('retry', values.retry, 0, 3_600_000) ?? 200;
  const sessionTtlMs = parseIntegerOption('session-ttl', values['session-ttl'], 100, 86_400_000);
  const maxSessions = parseIntegerOption('max-sessions', values['max-sessions'], 1, 1_000_000);
  let server: Awaited<ReturnType<typeof startReferenceServer>>;
  try {
    server = await startReferenceServer({
      port,
      jsonResponse: values['json-response'],
      accelHeader: !values['no-accel-header'],
      keepAliveMs,
      retryMs,
      ...(failAt !== undefined && { failAtStep: failAt }),
      checkTools: values['check-tools'],
      ...(sessionTtlMs !== undefined && { sessionTtlMs }),
      ...(maxSessions !== undefined && { maxSessions }),
      allowedOrigins: values['allow-origin'] ?? [],
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
  process.stdout.write(`${server.url}\n`);
  process.stderr.write(`[mcp-golden] reference server listening on ${server.url} (Ctrl-C to stop)\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  return 0;
}
