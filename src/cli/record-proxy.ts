import { startProxySessions } from '../record/proxy-sessions.js';
import { SessionGoldens } from '../record/session-goldens.js';
import type { StdioCommand } from '../record/stdio-wire-session.js';
import { httpProxyTarget, startStdioTargetRecording } from '../record/target-proxy.js';

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
    ...(sessionIdleMs !== undefined && { sessionIdleMs }),
  });
  process.stdout.write(`${proxy.url}\n`);
  process.stderr.write(
    `[mcp-golden] recording proxy for ${label} on ${proxy.url}: point your client here; each session's golden is written to ${out} when its client leaves, the others on Ctrl-C\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  const files = await proxy.close();
  process.stderr.write(`[mcp-golden] ${files.length} session(s) written to ${out}\n`);
  return 0;
}

/**
 * `mcp-golden record --proxy --stdio CMD`: the proxy is itself the stdio command the client starts.
 * It starts CMD, passes both directions through, and writes the session's golden to `out` when the
 * client closes its stdin (or CMD exits, or on SIGINT/SIGTERM). Nothing but CMD's bytes goes to stdout.
 */
export async function recordThroughStdioProxy(server: StdioCommand, out: string): Promise<number> {
  const proxy = startStdioTargetRecording(server, process.stdin, process.stdout);
  const onSignal = (): void => void proxy.stop();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const session = await proxy.ended;
    const goldens = new SessionGoldens(out, 'proxy', session.header.target);
    await goldens.writeRest(session);
    process.stderr.write(`[mcp-golden] ${goldens.files.length} session(s) written to ${out}\n`);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return 0;
}
