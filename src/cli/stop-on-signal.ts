import { stopAllGroups } from '../process/child-group.js';

const SIGNALS = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 } as const;
/** Longest a signalled CLI takes to stop its children before it exits anyway. */
const STOP_BOUND_MS = 5000;

/**
 * Until the returned function is called, SIGINT, SIGTERM and SIGHUP stop every child process
 * group the CLI started (SIGTERM, grace, SIGKILL) and exit with 128 + the signal number. A second
 * signal exits at once. In-process servers end with the process.
 */
export function stopOnSignal(what: string, graceMs = 1000): () => void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals): void => {
    const code = 128 + SIGNALS[signal as keyof typeof SIGNALS];
    if (stopping) process.exit(code);
    stopping = true;
    process.stderr.write(`\n[mcp-golden] ${what} stopped by ${signal}: stopping every process it started.\n`);
    setTimeout(() => process.exit(code), STOP_BOUND_MS).unref();
    void stopAllGroups(graceMs, { final: true }).finally(() => process.exit(code));
  };
  for (const signal of Object.keys(SIGNALS)) process.on(signal, handler);
  return () => {
    for (const signal of Object.keys(SIGNALS)) process.off(signal, handler);
  };
}
