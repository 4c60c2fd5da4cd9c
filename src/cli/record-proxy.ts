import { GoldenError } from '../errors.js';
import { startRecordingProxy } from '../record/recording-proxy.js';
import { startStdioRecordingProxy } from '../record/stdio-recording-proxy.js';
import type { StdioCommand } from '../record/stdio-wire-session.js';
import { httpTargetParts, secretPatterns, stdioTargetSecrets } from '../record/target-secrets.js';
import { SECRET_HEADERS } from '../transcript/redact.js';
import { type CliIo, stopRequested } from './cli-io.js';
import { SESSION_END_SETTLE_MS, SessionGoldens } from './session-goldens.js';

/**
 * `mcp-golden record --proxy --target URL`: serves a real client (the Inspector, an IDE, an agent)
 * through a recording reverse proxy, prints the URL to connect to, and writes one golden per client
 * session to `out` when that session ends (the client's DELETE), the sessions still open on SIGINT
 * or SIGTERM (each atomically: a temporary file renamed), with the secrets of the target redacted
 * as `record` does.
 */
export async function recordThroughProxy(target: string, port: number, out: string, io: CliIo): Promise<number> {
  if (!/^https?:\/\//.test(target) || !URL.canParse(target)) {
    throw new GoldenError(
      'E_USAGE',
      `Invalid --target "${target.replace(/[?#].*$/s, '')}" for --proxy: expected the http:// URL of a running MCP server. Run \`mcp-golden record --help\` for usage.`,
    );
  }
  const parts = httpTargetParts(target);
  const goldens = new SessionGoldens(out, 'proxy', parts.label, io.stderr);
  const pending = new Set<Promise<void>>();
  const proxy = await startRecordingProxy({
    upstream: parts.url,
    port,
    redact: { headers: [...SECRET_HEADERS], patterns: secretPatterns(parts.values) },
    onSessionEnd(id) {
      const write = new Promise<void>((resolve) => setTimeout(resolve, SESSION_END_SETTLE_MS))
        .then(() => goldens.writeSession(proxy.transcript(), id))
        .catch((error: Error) => {
          io.stderr.write(`[mcp-golden] could not write session ${id}: ${error.message}\n`);
        })
        .finally(() => pending.delete(write));
      pending.add(write);
    },
  });
  io.stdout.write(`${proxy.url}\n`);
  io.stderr.write(
    `[mcp-golden] recording proxy for ${parts.label} on ${proxy.url}: point your client here; each session's golden is written to ${out} when it ends, the others on Ctrl-C\n`,
  );
  await stopRequested(io).stopped;
  await Promise.all(pending);
  await goldens.writeRest(await proxy.close());
  io.stderr.write(`[mcp-golden] ${goldens.files.length} session(s) written to ${out}\n`);
  return 0;
}

/**
 * `mcp-golden record --proxy --stdio CMD`: the proxy is itself the stdio command the client starts.
 * It starts CMD, passes both directions through, and writes the session's golden to `out` when the
 * client closes its stdin (or CMD exits, or on SIGINT/SIGTERM). Nothing but CMD's bytes goes to stdout.
 */
export async function recordThroughStdioProxy(server: StdioCommand, out: string, io: CliIo): Promise<number> {
  const secrets = stdioTargetSecrets(server.command, server.args ?? [], server.env);
  const label = server.label ?? secrets.label;
  const proxy = startStdioRecordingProxy({
    server: { ...server, label },
    input: io.stdin,
    output: io.stdout,
    redact: { headers: [...SECRET_HEADERS], patterns: secretPatterns(secrets.values) },
  });
  const stop = stopRequested(io);
  void stop.stopped.then(() => proxy.stop());
  const goldens = new SessionGoldens(out, 'proxy', label, io.stderr);
  try {
    await goldens.writeRest(await proxy.ended);
  } finally {
    stop.cancel();
  }
  io.stderr.write(`[mcp-golden] ${goldens.files.length} session(s) written to ${out}\n`);
  return 0;
}
