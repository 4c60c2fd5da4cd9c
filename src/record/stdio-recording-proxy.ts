import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawnGroup } from '../process/child-group.js';
import { GOLDEN_FORMAT, type Transcript } from '../transcript/frame.js';
import { frameMessage } from '../transcript/frame-content.js';
import { paramsOf } from '../transcript/json-rpc.js';
import { envelopeVersion } from '../transcript/modern-envelope.js';
import { type RedactOptions, redactTranscript } from '../transcript/redact.js';
import { DEFAULT_PROTOCOL_VERSION, RECORDER } from '../version.js';
import { FrameSink } from './frame-sink.js';
import { assignStdioExchanges, type StdioCommand } from './stdio-wire-session.js';

/** Options of {@link startStdioRecordingProxy}. */
export interface StdioRecordingProxyOptions {
  /** The MCP server to start and forward to. */
  readonly server: StdioCommand;
  /** What the client writes (the proxy's own stdin). */
  readonly input: NodeJS.ReadableStream;
  /** Where the server's answers go (the proxy's own stdout). */
  readonly output: NodeJS.WritableStream;
  /** Secrets removed from the transcript. @default none */
  readonly redact?: RedactOptions;
}

/** A running stdio recording proxy. */
export interface StdioRecordingProxy {
  /**
   * The session, once the client closed its end (its stdin ended) and the server was stopped, or
   * the server exited: each line of either direction as it was read.
   */
  readonly ended: Promise<Transcript>;
  /** Ends the session now (a signal): stops the server and resolves {@link ended}. */
  stop(): Promise<Transcript>;
  /**
   * Why the server never served, once {@link ended}: it could not be started (a missing command),
   * it exited before the client sent anything, or it exited with an error before it wrote a byte
   * while the client was still there; with the end of its stderr. `undefined` for a server that ran.
   */
  startFailure(): string | undefined;
  /**
   * How the server ended the session itself, once {@link ended}: it could not start, or it exited
   * (code or signal) while its client was still there, with the end of its stderr. `undefined` when
   * the client closed its end or {@link stop} ended the session.
   */
  serverExit(): string | undefined;
}

/** How much of a server's stderr an error quotes: its last lines. */
const STDERR_TAIL_CHARS = 600;

/**
 * A stdio command a client starts in place of its server: starts `server`, passes every byte of
 * both directions through unchanged and at once, and records them (a stdio tee). The session ends
 * when the client closes the proxy's stdin (the server's stdin is closed in turn, and the server
 * stopped if it does not exit), or when the server exits.
 *
 * @example
 * const proxy = startStdioRecordingProxy({ server: { command: 'node', args: ['server.js'] }, input: process.stdin, output: process.stdout })
 * await writeGolden('goldens/session.jsonl', await proxy.ended)
 */
export function startStdioRecordingProxy(options: StdioRecordingProxyOptions): StdioRecordingProxy {
  const { server } = options;
  const label = server.label ?? [server.command, ...(server.args ?? [])].join(' ');
  const group = spawnGroup(server.command, [...(server.args ?? [])], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...server.env },
    label,
    ...(server.cwd !== undefined && { cwd: server.cwd }),
  });
  const child = group.child as ChildProcessWithoutNullStreams;
  const sink = new FrameSink();
  const toServer = sink.body(0, 'client->server', 'stdio');
  const fromServer = sink.body(0, 'server->client', 'stdio');
  let wrote = false;
  let asked = false;
  // Who ended the session: the client (its stdin closed), the server (it exited), or a stop.
  let endedBy: 'client' | 'server' | 'stop' | undefined;
  // The server's stderr is passed on, and its end kept to say why it exited.
  let stderrTail = '';
  const stderrClosed = new Promise<void>((resolve) => child.stderr.once('close', resolve));
  child.stderr.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
  });
  let spawnError: NodeJS.ErrnoException | undefined;
  child.once('error', (error: NodeJS.ErrnoException) => {
    spawnError = error;
  });
  const onInput = (chunk: Buffer | string): void => {
    asked = true;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    toServer.read(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    if (child.stdin.writable) child.stdin.write(bytes);
  };
  // The server gone (EPIPE) ends the session through its exit; nothing to crash on here.
  child.stdin.on('error', () => undefined);
  child.stdout.on('data', (chunk: Buffer) => {
    wrote = true;
    fromServer.read(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    options.output.write(chunk);
  });
  options.input.on('data', onInput);
  let stopping: Promise<Transcript> | undefined;
  const stop = (): Promise<Transcript> => {
    stopping ??= (async () => {
      options.input.off('data', onInput);
      toServer.end('complete');
      child.stdin.end();
      // A server that does not exit when its stdin closes is stopped (SIGTERM, then SIGKILL).
      await Promise.race([group.exit, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
      await group.stop();
      await Promise.race([stderrClosed, new Promise((resolve) => setTimeout(resolve, 500).unref())]);
      fromServer.end('complete');
      return transcriptOf(sink, label, options.redact);
    })();
    return stopping;
  };
  const ended = new Promise<Transcript>((resolve) => {
    options.input.once('end', () => {
      endedBy ??= 'client';
      resolve(stop());
    });
    void group.exit.then(() => {
      endedBy ??= 'server';
      resolve(stop());
    });
  });
  const stderrSaid = (): string => {
    const tail = stderrTail.trim();
    return tail === '' ? '; it wrote nothing to stderr' : `; its stderr ended with: ${tail}`;
  };
  const startFailure = (): string | undefined => {
    if (spawnError) {
      return spawnError.code === 'ENOENT'
        ? `the command "${server.command}" was not found (ENOENT)`
        : `it could not be started (${spawnError.message})`;
    }
    const how = group.exited();
    if (how === undefined) return undefined;
    // A server that exited on its own before its client sent anything never served (any exit code).
    if (endedBy === 'server' && !asked) return `it ${how} before the client sent anything${stderrSaid()}`;
    // A server asked something that failed before it wrote anything (a missing script, a crash on
    // start): an exit code other than 0; a server the proxy stopped was killed by a signal instead.
    return asked && !wrote && /^exited with code [1-9]/.test(how) ? `it ${how}${stderrSaid()}` : undefined;
  };
  const serverExit = (): string | undefined => {
    if (endedBy !== 'server') return undefined;
    return startFailure() ?? `it ${group.exited() ?? 'exited'} while its client was connected${stderrSaid()}`;
  };
  return {
    ended,
    stop: () => {
      endedBy ??= 'stop';
      return stop();
    },
    startFailure,
    serverExit,
  };
}

function transcriptOf(sink: FrameSink, label: string, redact: RedactOptions | undefined): Transcript {
  const frames = assignStdioExchanges(sink.snapshot());
  const messages = frames.filter((f) => f.dir === 'client->server').map(frameMessage);
  const init = messages.find((m) => m?.method === 'initialize');
  const asked = init && paramsOf(init).protocolVersion;
  // A session without initialize whose requests carry the per-request envelope is a 2026-07-28 one.
  const enveloped = init ? undefined : messages.map((m) => m && envelopeVersion(m)).find((v) => v !== undefined);
  const header = {
    format: GOLDEN_FORMAT,
    era: enveloped === undefined ? ('legacy' as const) : ('modern' as const),
    protocolVersion: enveloped ?? (typeof asked === 'string' ? asked : DEFAULT_PROTOCOL_VERSION),
    transport: 'stdio' as const,
    target: label,
    recorder: RECORDER,
    notes: { recordedBy: 'recording proxy' },
  };
  return redactTranscript({ header, frames }, redact);
}
