import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Readable, Writable } from 'node:stream';

/**
 * Everything a command reads from or writes to its surroundings. The bin passes the process's own;
 * a test passes buffers, a working directory and an `AbortSignal`, and runs the command in process.
 * No command touches `process.stdout`, `process.stderr`, `process.stdin`, `process.cwd()` or
 * `process.exitCode` itself (test/architecture.test.ts holds it).
 */
export interface CliIo {
  readonly stdin: Readable;
  /** Where results go (and, for `serve --stdio` and `replay --stdio`, the MCP messages). */
  readonly stdout: Writable;
  /** Where `[mcp-golden]` notes, progress and errors go. */
  readonly stderr: Writable;
  /** Relative paths on the command line are read from here. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Aborted to stop a command that runs until stopped (`serve`, `replay`, `record --proxy`), as
   * Ctrl-C does. Absent: the process's SIGINT and SIGTERM stop it.
   */
  readonly signal?: AbortSignal;
}

/** The process's own streams, working directory and environment: what the bin runs with. */
export function processIo(): CliIo {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env };
}

/** `path` as the command line meant it: relative to the command's working directory. */
export function pathIn(io: Pick<CliIo, 'cwd'>, path: string): string {
  return isAbsolute(path) ? path : resolve(io.cwd, path);
}

/** `path` as a user reads it: relative to the command's working directory when inside it, `/`-separated. */
export function shownPath(io: Pick<CliIo, 'cwd'>, path: string): string {
  const inside = relative(io.cwd, path);
  return (inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path).split(sep).join('/');
}

/**
 * Resolves when the command is asked to stop: `io.signal` aborted, or (without a signal) the
 * process gets SIGINT or SIGTERM. The listeners it adds are removed when it resolves or `cancel`
 * is called, so a command run in process leaves none behind.
 */
export function stopRequested(io: Pick<CliIo, 'signal'>): { readonly stopped: Promise<void>; cancel(): void } {
  let cancel = (): void => {};
  const stopped = new Promise<void>((done) => {
    const { signal } = io;
    if (signal) {
      if (signal.aborted) return done();
      const onAbort = (): void => done();
      signal.addEventListener('abort', onAbort, { once: true });
      cancel = () => signal.removeEventListener('abort', onAbort);
      return;
    }
    const onSignal = (): void => {
      cancel();
      done();
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    cancel = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    };
  });
  return {
    stopped: stopped.then(() => cancel()),
    cancel: () => cancel(),
  };
}
