import { GoldenError } from '../errors.js';
import type { CommandSpec, ParsedArgs } from './command-spec.js';

/** A listen error of node:net (`listen EADDRINUSE: address already in use 127.0.0.1:8080`). */
interface ListenErrno extends Error {
  readonly code: 'EADDRINUSE' | 'EACCES';
  readonly syscall: 'listen';
  readonly address?: string;
  readonly port?: number;
}

function findListenErrno(error: unknown): ListenErrno | undefined {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    const errno = current as Partial<ListenErrno>;
    if (errno.syscall === 'listen' && (errno.code === 'EADDRINUSE' || errno.code === 'EACCES')) {
      return current as ListenErrno;
    }
    current = current.cause;
  }
  return undefined;
}

/**
 * The usage error for a port the command could not listen on (taken, or privileged), naming the
 * port, the option that chose it and the fix; `undefined` for any other error. Every command that
 * listens (serve, replay, check's upstream, ...) gets the same message, with no stack trace.
 */
export function listenError<Names extends string>(
  error: unknown,
  spec: CommandSpec<Names>,
  args: ParsedArgs<Names>,
): GoldenError | undefined {
  const errno = findListenErrno(error);
  if (!errno) return undefined;
  const port = errno.port ?? Number(/:(\d+)$/.exec(errno.message)?.[1]);
  const address = `${errno.address ?? '127.0.0.1'}:${port}`;
  const option = (Object.keys(spec.options) as Names[]).find(
    (name) => (name === 'port' || name.endsWith('-port')) && args.integer(name) === port,
  );
  const problem =
    errno.code === 'EADDRINUSE'
      ? 'the port is in use (EADDRINUSE)'
      : 'permission denied (EACCES: ports below 1024 need privileges)';
  const fix = option
    ? `Pick another with --${option} N, or --${option} 0 for a free one`
    : 'Stop the process that holds it, or pick another port';
  return new GoldenError(
    'E_USAGE',
    `Cannot listen on ${address}: ${problem}. Expected a free port on 127.0.0.1. ${fix} (\`lsof -i :${port}\` shows what holds it).`,
    { cause: error },
  );
}
