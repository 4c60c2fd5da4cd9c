import { PassThrough, Readable } from 'node:stream';
import type { CliIo } from '../../src/cli/cli-io.js';
import { runCli } from '../../src/cli/run-cli.js';
import type { CliResult } from './cli.js';

/** What an in-process run reads: the working directory, extra environment and stdin. */
export interface InProcessOptions {
  /** @default process.cwd() */
  readonly cwd?: string;
  /** Added to (and overriding) the test process's environment. */
  readonly env?: Record<string, string | undefined>;
  /** The command's stdin. @default empty, ended */
  readonly stdin?: string | Readable;
  /** Aborts the command after this long, as Ctrl-C would. @default 60000 */
  readonly timeoutMs?: number;
}

/** A pair of buffers the command writes into, read as text. */
function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
  });
  return { stream, text: () => text };
}

function ioOf(options: InProcessOptions, signal: AbortSignal, out: PassThrough, err: PassThrough): CliIo {
  const stdin =
    options.stdin instanceof Readable
      ? options.stdin
      : Readable.from(options.stdin === undefined ? [] : [options.stdin]);
  return {
    stdin,
    stdout: out,
    stderr: err,
    cwd: options.cwd ?? process.cwd(),
    env: { ...process.env, ...options.env },
    signal,
  };
}

/**
 * Runs `mcp-golden ...args` in this process (the same `runCli` the bin runs) and returns its exit
 * code and what it wrote, as the spawning `runCli` of `./cli.ts` does, in a fraction of the time.
 */
export async function runInProcess(args: readonly string[], options: InProcessOptions = {}): Promise<CliResult> {
  const out = capture();
  const err = capture();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs ?? 60_000);
  try {
    const code = await runCli(args, ioOf(options, abort.signal, out.stream, err.stream));
    return { code, stdout: out.text(), stderr: err.text() };
  } finally {
    clearTimeout(timer);
  }
}

/** A command that runs until stopped (`serve`, `replay`, `record --proxy`), started in process. */
export interface StartedInProcess {
  /** The first line it wrote on stdout (the URL it serves on). */
  readonly firstLine: string;
  /** What it wrote so far. */
  stdout(): string;
  stderr(): string;
  /** Asks it to stop, as Ctrl-C does, and resolves with its exit code. */
  stop(): Promise<number>;
}

/** Starts a long-running command in process and resolves once its first stdout line appears. */
export async function startInProcess(
  args: readonly string[],
  options: Omit<InProcessOptions, 'timeoutMs'> = {},
): Promise<StartedInProcess> {
  const out = capture();
  const err = capture();
  const abort = new AbortController();
  const exited = runCli(args, ioOf(options, abort.signal, out.stream, err.stream));
  const firstLine = await new Promise<string>((resolve, reject) => {
    const look = (): void => {
      const newline = out.text().indexOf('\n');
      if (newline >= 0) {
        out.stream.off('data', look);
        resolve(out.text().slice(0, newline));
      }
    };
    out.stream.on('data', look);
    void exited.then((code) => reject(new Error(`mcp-golden ${args.join(' ')} exited with ${code}: ${err.text()}`)));
  });
  return {
    firstLine,
    stdout: out.text,
    stderr: err.text,
    stop: async () => {
      abort.abort();
      return exited;
    },
  };
}
