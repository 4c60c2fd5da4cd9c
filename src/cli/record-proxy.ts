import { GoldenError } from '../errors.js';
import { startProxySessions } from '../record/proxy-sessions.js';
import { SessionGoldens } from '../record/session-goldens.js';
import { startStdioRecordingProxy } from '../record/stdio-recording-proxy.js';
import type { StdioCommand } from '../record/stdio-wire-session.js';
import { httpTargetParts, secretPatterns, stdioTargetSecrets } from '../record/target-secrets.js';
import { SECRET_HEADERS } from '../transcript/redact.js';

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
  if (!/^https?:\/\//.test(target) || !URL.canParse(target)) {
    throw new GoldenError(
      'E_USAGE',
      `Invalid --target "${target.replace(/[?#].*$/s, '')}" for --proxy: expected the http:// URL of a running MCP server. Run \`mcp-golden record --help\` for usage.`,
    );
  }
  const parts = httpTargetParts(target);
  const proxy = await startProxySessions({
    upstream: parts.url,
    port,
    redact: { headers: [...SECRET_HEADERS], patterns: secretPatterns(parts.values) },
    out,
    prefix: 'proxy',
    label: parts.label,
    ...(sessionIdleMs !== undefined && { sessionIdleMs }),
  });
  process.stdout.write(`${proxy.url}\n`);
  process.stderr.write(
    `[mcp-golden] recording proxy for ${parts.label} on ${proxy.url}: point your client here; each session's golden is written to ${out} when its client leaves, the others on Ctrl-C\n`,
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
  const secrets = stdioTargetSecrets(server.command, server.args ?? [], server.env);
  const label = server.label ?? secrets.label;
  const proxy = startStdioRecordingProxy({
    server: { ...server, label },
    input: process.stdin,
    output: process.stdout,
    redact: { headers: [...SECRET_HEADERS], patterns: secretPatterns(secrets.values) },
  });
  const onSignal = (): void => void proxy.stop();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const goldens = new SessionGoldens(out, 'proxy', label);
  try {
    await goldens.writeRest(await proxy.ended);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  process.stderr.write(`[mcp-golden] ${goldens.files.length} session(s) written to ${out}\n`);
  return 0;
}
