import { stopAllGroups } from '../process/child-group.js';
import type { CliIo } from './cli-io.js';

const SIGNALS = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 } as const;
/** Longest a signalled CLI takes to stop its children before it exits anyway. */
const STOP_BOUND_MS = 5000;

/**
 * Until the returned function is called, SIGINT, SIGTERM and SIGHUP stop every child process
 * group the CLI started (SIGTERM, grace, SIGKILL) and exit with 128 + the signal number. A second
 * signal exits at once. In-process servers end with the process. A command run in process (with
 * `io.signal`) is the caller's to stop: no process handler is installed.
 */
export function stopOnSignal(what: string, io: CliIo, graceMs = 1000): () => void {
  if (io.signal) return () => {};
  let stopping = false;
  const handler = (signal: NodeJS.Signals): void => {
    const code = 128 + SIGNALS[signal as keyof typeof SIGNALS];
    if (stopping) process.exit(code);
    stopping = true;
    io.stderr.write(`\n[mcp-golden] ${what} stopped by ${signal}: stopping every process it started.\n`);
    setTimeout(() => process.exit(code), STOP_BOUND_MS).unref();
    void stopAllGroups(graceMs, { final: true }).finally(() => process.exit(code));
  };
  for (const signal of Object.keys(SIGNALS)) process.on(signal, handler);
  return () => {
    for (const signal of Object.keys(SIGNALS)) process.off(signal, handler);
  };
}
