// The careful client's request timeouts: a call that hears nothing for IDLE_MS (a progress resets it)
// or that runs MAX_MS in all is given up: cancelled as an abort is (2025: notifications/cancelled;
// 2026-07-28: its stream closed) and reported as an error. `--time-scale X` (before the URL) scales
// both, so the tests run the --long rows shorter; the faults no-timeout, timeout-no-cancel and
// timeout-total-60s each break one part of it.

/** No message for this long (a progress resets it): the call is given up. */
export const IDLE_MS = 100_000;
/** Longest a call may run, progress or not. */
export const MAX_MS = 150_000;
/** The timeout-total-60s fault's one timeout, progress or not (the SDKs' default). */
const TOTAL_MS = 60_000;

/** Reads `--time-scale X` from the arguments before the URL (1 when absent). */
export function readTimeScale(argv) {
  const at = argv.indexOf('--time-scale');
  if (at < 0) return 1;
  const scale = Number(argv[at + 1]);
  if (!(scale > 0 && scale <= 1)) {
    process.stderr.write(`[mcp-golden] careful-client: --time-scale takes a number in (0, 1], got ${argv[at + 1]}.\n`);
    process.exit(2);
  }
  return scale;
}

/**
 * `callTool` with the careful client's timeouts. `lingering` collects the calls the
 * timeout-no-cancel fault gave up on without cancelling: the client waits for them before it exits,
 * as a host that forgot them keeps their streams open.
 */
export function withTimeouts(callTool, faults, scale, lingering) {
  if (faults.has('no-timeout')) return callTool;
  return async (call, hooks) => {
    const timeout = new AbortController();
    let why = '';
    let idle;
    const giveUp = (text) => {
      why = text;
      timeout.abort();
    };
    const total = faults.has('timeout-total-60s');
    const armIdle = () => {
      clearTimeout(idle);
      if (!total) idle = setTimeout(() => giveUp(`no message for ${IDLE_MS * scale} ms`), IDLE_MS * scale);
    };
    const cap = total ? TOTAL_MS * scale : MAX_MS * scale;
    const capTimer = setTimeout(() => giveUp(`still running after ${cap} ms`), cap);
    armIdle();
    const onProgress =
      hooks.onProgress &&
      ((progress, total) => {
        armIdle();
        hooks.onProgress(progress, total);
      });
    const timedOut = () => new Error(`timed out: ${why}`);
    try {
      if (faults.has('timeout-no-cancel')) {
        const running = callTool(call, { signal: hooks.signal, onProgress });
        const stopped = new Promise((_, reject) => timeout.signal.addEventListener('abort', () => reject(timedOut())));
        lingering.push(running.catch(() => {}));
        return await Promise.race([running, stopped]);
      }
      const signal = AbortSignal.any([hooks.signal, timeout.signal]);
      return await callTool(call, { signal, onProgress });
    } catch (error) {
      throw timeout.signal.aborted && !hooks.signal.aborted ? timedOut() : error;
    } finally {
      clearTimeout(idle);
      clearTimeout(capTimer);
    }
  };
}
