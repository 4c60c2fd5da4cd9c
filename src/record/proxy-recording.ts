import { GoldenError } from '../errors.js';
import { type ProxySessions, startProxySessions } from './proxy-sessions.js';
import { SessionGoldens } from './session-goldens.js';
import type { StdioCommand } from './stdio-wire-session.js';
import { httpProxyTarget, startStdioTargetRecording } from './target-proxy.js';

/** Options of {@link startHttpProxyRecording}. */
export interface HttpProxyRecordingOptions {
  /** The MCP server's URL (credentials in it are kept out of the goldens). */
  readonly target: string;
  /** Port to listen on (127.0.0.1). @default 0 */
  readonly port?: number;
  /** The folder the goldens go to. */
  readonly out: string;
  /** How long a session may be quiet before its golden is written. @default 5000 */
  readonly sessionIdleMs?: number;
  /** Where progress lines go. @default stderr */
  readonly log?: (line: string) => void;
}

/** A running `record --proxy --target`: where clients connect, and the target as a golden names it. */
export interface HttpProxyRecording extends ProxySessions {
  readonly label: string;
}

/**
 * `record --proxy --target URL` as a library function: a recording reverse proxy in front of a real
 * client's server (the Inspector, an IDE, an agent) that writes one golden per client session and
 * era to `out` when its client leaves it (its DELETE, its disconnect, or `sessionIdleMs` of quiet),
 * the others at `close()`; each atomically, named by its calls and with the target's secrets
 * redacted as `record` redacts, so `verify` re-runs it against the server it came from.
 *
 * @example
 * const proxy = await startHttpProxyRecording({ target: 'http://127.0.0.1:3000/mcp', out: 'goldens' })
 * // point the client at proxy.url, use it, then:
 * const files = await proxy.close()
 */
export async function startHttpProxyRecording(options: HttpProxyRecordingOptions): Promise<HttpProxyRecording> {
  const { upstream, label, redact } = httpProxyTarget(
    options.target,
    '--target "%s" for --proxy',
    'Run `mcp-golden record --help` for usage.',
  );
  const proxy = await startProxySessions({
    upstream,
    redact,
    out: options.out,
    prefix: 'proxy',
    label,
    ...(options.port !== undefined && { port: options.port }),
    ...(options.log !== undefined && { log: options.log }),
    ...(options.sessionIdleMs !== undefined && { sessionIdleMs: options.sessionIdleMs }),
  });
  return { ...proxy, label, close: () => proxy.close() };
}

/** Options of {@link recordStdioProxySession}. */
export interface StdioProxyRecordingOptions {
  /** The MCP server command to start and pass both directions to. */
  readonly server: StdioCommand;
  /** The folder the goldens go to. */
  readonly out: string;
  /** What the client writes (the proxy's own stdin). */
  readonly input: NodeJS.ReadableStream;
  /** Where the server's bytes go (the proxy's own stdout): nothing else is written there. */
  readonly output: NodeJS.WritableStream;
  /** Resolves when the session should end now (a signal). */
  readonly stop?: Promise<void>;
  /** Where progress lines go. @default stderr */
  readonly log?: (line: string) => void;
}

/**
 * `record --proxy --stdio CMD` as a library function: the proxy is the stdio command the client
 * starts. It starts `server`, passes both directions through, and when the client closes its stdin
 * (or the server exits, or `stop` resolves) writes the session's goldens to `out` and returns them.
 * A server that cannot start (a missing command) or fails before it answers anything is an
 * `E_TARGET` error naming why, and no golden; a session that only asked which protocol version the
 * server speaks (the SDK v2 client's probe in `auto` mode) writes none.
 */
export async function recordStdioProxySession(options: StdioProxyRecordingOptions): Promise<readonly string[]> {
  const proxy = startStdioTargetRecording(options.server, options.input, options.output);
  void options.stop?.then(() => proxy.stop());
  const session = await proxy.ended;
  const failed = proxy.startFailure();
  if (failed !== undefined) {
    throw new GoldenError(
      'E_TARGET',
      `record --proxy could not start the stdio server "${session.header.target}": ${failed}. Expected a command that serves MCP on stdin/stdout. Run the command by hand to see why, then fix it in --stdio.`,
    );
  }
  const goldens = new SessionGoldens(options.out, 'proxy', session.header.target, options.log);
  await goldens.writeRest(session);
  return goldens.files;
}
