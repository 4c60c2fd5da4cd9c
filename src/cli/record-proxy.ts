import { GoldenError } from '../errors.js';
import { startProxySessions } from '../record/proxy-sessions.js';
import { SessionGoldens } from '../record/session-goldens.js';
import type { StdioCommand } from '../record/stdio-wire-session.js';
import { httpProxyTarget, startStdioTargetRecording } from '../record/target-proxy.js';
import { type CliIo, stopRequested } from './cli-io.js';

/**
 * `mcp-golden record --proxy --target URL`: serves a real client (the Inspector, an IDE, an agent)
 * through a recording reverse proxy, prints the URL to connect to, and writes one golden per client
 * session to `out` when the client leaves it (its DELETE, its disconnect, or `sessionIdleMs` of
 * quiet), the sessions still open on SIGINT or SIGTERM (each atomically: a temporary file renamed),
 * with the secrets of the target redacted as `record` does.
 */
export async function recordThroughProxy(
  target: string,
  port: number,
  out: string,
  io: CliIo,
  sessionIdleMs?: number,
): Promise<number> {
  const { upstream, label, redact } = httpProxyTarget(
    target,
    '--target "%s" for --proxy',
    'Run `mcp-golden record --help` for usage.',
  );
  const proxy = await startProxySessions({
    upstream,
    port,
    redact,
    out,
    prefix: 'proxy',
    label,
    log: (line) => io.stderr.write(`${line}\n`),
    ...(sessionIdleMs !== undefined && { sessionIdleMs }),
  });
  io.stdout.write(`${proxy.url}\n`);
  io.stderr.write(
    `[mcp-golden] recording proxy for ${label} on ${proxy.url}: point your client here; each session's golden is written to ${out} when its client leaves, the others on Ctrl-C\n`,
  );
  await stopRequested(io).stopped;
  const files = await proxy.close();
  io.stderr.write(`[mcp-golden] ${files.length} session(s) written to ${out}\n`);
  return 0;
}

/**
 * `mcp-golden record --proxy --stdio CMD`: the proxy is itself the stdio command the client starts.
 * It starts CMD, passes both directions through, and writes the session's golden to `out` when the
 * client closes its stdin (or CMD exits, or on SIGINT/SIGTERM). Nothing but CMD's bytes goes to stdout.
 */
export async function recordThroughStdioProxy(server: StdioCommand, out: string, io: CliIo): Promise<number> {
  const proxy = startStdioTargetRecording(server, io.stdin, io.stdout);
  const stop = stopRequested(io);
  void stop.stopped.then(() => proxy.stop());
  try {
    const session = await proxy.ended;
    const failed = proxy.startFailure();
    if (failed !== undefined) {
      throw new GoldenError(
        'E_TARGET',
        `record --proxy could not start the stdio server "${session.header.target}": ${failed}. Expected a command that serves MCP on stdin/stdout. Run the command by hand to see why, then fix it in --stdio.`,
      );
    }
    const goldens = new SessionGoldens(out, 'proxy', session.header.target, (line) => io.stderr.write(`${line}\n`));
    await goldens.writeRest(session);
    io.stderr.write(`[mcp-golden] ${goldens.files.length} session(s) written to ${out}\n`);
  } finally {
    stop.cancel();
  }
  return 0;
}
