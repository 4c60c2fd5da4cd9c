import { describeError, GoldenError, isGoldenError } from '../errors.js';
import { type RecordTarget, recordCall } from '../record/record-call.js';
import type { Era } from '../transcript/frame.js';

// A gateway the check could not set up: the first call before the battery, and the one message
// that says what failed and the likely fix instead of a table of failed rows.

/**
 * One quick call through the gateway before the battery. A gateway that cannot take one call
 * (refused, reset, exited, never answered) is a setup error, not a verdict: no row runs. Returns
 * the error of that call, or how long the gateway took to send its first answer.
 */
export async function probe(
  target: RecordTarget,
  timeoutMs: number,
  era: Era,
): Promise<{ readonly error: unknown } | { readonly readyMs: number }> {
  try {
    const recording = await recordCall(target, { tool: 'chatty', timeoutMs, era });
    const first = recording.frames.find((f) => f.dir === 'server->client');
    return { readyMs: (first?.t ?? 0) / 1000 };
  } catch (error) {
    return { error };
  }
}

/** Whether a failed first call is the gateway saying nothing at all within the timeout (it may still be starting). */
export function silentTimeout(error: unknown, output: string): boolean {
  return isGoldenError(error, 'E_TIMEOUT') && output.trim() === '';
}

/** Whether the probe's failure is an HTTP answer carrying a JSON-RPC message (the gateway is up). */
export function answeredJsonRpc(error: unknown): boolean {
  return isGoldenError(error, 'E_TARGET') && /failed: HTTP \d{3}: \{"jsonrpc":"2\.0"/.test(error.message);
}

/**
 * The check could not set the gateway up, so nothing was judged: `check` prints this one message
 * and exits 3, with no table. `what` says what failed (with the command as run, how it ended and
 * the tail of its output where there is one), `fix` the likely fix.
 */
export class CheckSetupError extends GoldenError {
  constructor(what: string, fix: string) {
    super('E_TARGET', `${what}\nNo row was run: this is a setup error, not a verdict on the gateway. ${fix}`);
    this.name = 'CheckSetupError';
  }
}

/** Whether `template` has an `{upstream}` not inside quotes (the shell then splits a stdio command into several words). */
function unquotedUpstream(template: string): boolean {
  return /(^|[^'"])\{upstream\}(?!['"])/.test(template);
}

/** A shell or spawn that could not run an http:// URL: the gateway took {upstream} for a stdio command. */
const RAN_THE_URL =
  /\bsh: (?:\d+: )?https?:\/\/\S+: (?:not found|No such file or directory)|spawn https?:\/\/\S+ ENOENT/;

/**
 * The likely fix for a gateway command that did not start or did not take a first call, from what
 * was seen: a gateway that wrote nothing and neither listened nor answered within the timeout is
 * most likely still starting (`npx -y` downloads the package on a cold cache).
 */
export function startFix(
  template: string,
  upstreamTransport: 'http' | 'stdio',
  clientTransport: 'http' | 'stdio',
  seen: { readonly silent: boolean; readonly timeoutMs: number; readonly output?: string } = {
    silent: false,
    timeoutMs: 0,
  },
): string {
  if (upstreamTransport === 'http' && seen.output !== undefined && RAN_THE_URL.test(seen.output)) {
    return "Likely fix: the gateway ran {upstream}, the upstream's URL, as a command (its output above says so): it starts its upstream itself, over stdio. Add --upstream-transport stdio, so that {upstream} becomes the reference server's command line.";
  }
  if (seen.silent) {
    const npx = /\bnpx\b/.test(template)
      ? ' or install the gateway first (npm install --save-dev <its package>) and run its binary instead of `npx -y`, which downloads it again on a cold cache'
      : ' or start it once by hand to warm what it loads';
    return `Likely fix: the gateway wrote nothing and ${clientTransport === 'stdio' ? 'did not answer initialize' : 'did not listen'} within ${seen.timeoutMs} ms, as a gateway still starting does: raise --timeout (e.g. --timeout ${Math.max(60_000, seen.timeoutMs * 4)}),${npx}.`;
  }
  const quoteHint =
    upstreamTransport === 'stdio' && unquotedUpstream(template)
      ? ` With --upstream-transport stdio, {upstream} becomes a command of several words: if your gateway takes the upstream command as one argument, quote it, e.g. --gateway 'supergateway --stdio "{upstream}" --outputTransport streamableHttp --port {port}'.`
      : '';
  const listen =
    clientTransport === 'stdio'
      ? 'that it speaks MCP on its stdin and stdout (--client-transport stdio)'
      : 'that it takes {port} as the port it listens on (127.0.0.1), and that --gateway-path (default /mcp) is its MCP endpoint';
  return `Likely fix:${quoteHint} Run the command above in a terminal to see why it stops; check its options, ${listen}. See "Gateways from npm, and nginx" in docs/gateway-authors.md for a working command line per gateway.`;
}

/** The cause of a failed first call, without the recorder's hints about options `check` does not have. */
export function causeText(error: unknown): string {
  return describeError(error)
    .split('\n')
    .map((line) => line.replace(/\s*[^.]*--target[^.]*\.?/g, ''))
    .join('\n')
    .trim();
}

/** Last `n` lines of a process's output, or `(nothing)`. */
export function tail(output: string, n = 10): string {
  return output.split('\n').slice(-n).join('\n') || '(nothing)';
}
