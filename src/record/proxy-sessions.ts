import { type RecordingProxyOptions, startRecordingProxy } from './recording-proxy.js';
import { SESSION_END_SETTLE_MS, SessionGoldens } from './session-goldens.js';

/** Options of {@link startProxySessions}. */
export interface ProxySessionsOptions extends Omit<RecordingProxyOptions, 'onSessionEnd'> {
  /** The folder the goldens go to. */
  readonly out: string;
  /** The start of each file name: `<prefix>-<time>-<n>.jsonl`. */
  readonly prefix: string;
  /** The target as a golden's header names it (secrets removed). */
  readonly label: string;
  /** Where progress lines go. @default stderr */
  readonly log?: (line: string) => void;
}

/** A recording proxy that writes each client session as a golden of its own. */
export interface ProxySessions {
  /** Where clients connect. */
  readonly url: string;
  /** The goldens written so far, in order. */
  readonly files: readonly string[];
  /** Stops the proxy, writes the sessions not written yet and returns every file written. */
  close(): Promise<readonly string[]>;
}

/**
 * `record --proxy` and the replay's pass-through as one library function: a recording reverse
 * proxy in front of `upstream` that writes one golden per client session to `out` when the client
 * leaves it (its DELETE, its last connection closed, or `sessionIdleMs` without a request or an
 * open stream), and the sessions still open at {@link ProxySessions.close}; each atomically.
 *
 * @example
 * const proxy = await startProxySessions({ upstream: 'http://127.0.0.1:3000/mcp', out: 'goldens', prefix: 'proxy', label: 'my-server' })
 * // point a client at proxy.url; its session is on disk soon after it disconnects
 * await proxy.close()
 */
export async function startProxySessions(options: ProxySessionsOptions): Promise<ProxySessions> {
  const { out, prefix, label, log, ...proxyOptions } = options;
  const say = log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const goldens = new SessionGoldens(out, prefix, label, say);
  const pending = new Set<Promise<void>>();
  const proxy = await startRecordingProxy({
    ...proxyOptions,
    onSessionEnd(id) {
      // The server ends the session's other streams meanwhile (a DELETE), and its last frames arrive.
      const write = new Promise<void>((resolve) => setTimeout(resolve, SESSION_END_SETTLE_MS))
        .then(() => goldens.writeSession(proxy.transcript(), id))
        .catch((error: Error) =>
          say(`[mcp-golden] could not write session ${id || '(no session id)'}: ${error.message}`),
        )
        .finally(() => pending.delete(write));
      pending.add(write);
    },
  });
  return {
    url: proxy.url,
    files: goldens.files,
    async close() {
      await Promise.all(pending);
      await goldens.writeRest(await proxy.close());
      return goldens.files;
    },
  };
}
