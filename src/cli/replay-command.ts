import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { GoldenError } from '../errors.js';
import type { StdioCommand } from '../record/stdio-wire-session.js';
import type { Pace } from '../replay/pacing.js';
import type { PassedThrough } from '../replay/passthrough/index.js';
import type { NamedGolden } from '../replay/replay-plan.js';
import { type CliIo, pathIn, stopRequested } from './cli-io.js';
import { defineCommand } from './command-spec.js';
import { LISTEN_OPTIONS, sessionIdleOption } from './listen-options.js';
import { FAULT_SPECS, parseFaultSpecs } from './replay-fault-option.js';
import { parseStdioOption } from './target-options.js';

/** The goldens named (files, or folders read with their subfolders, as `verify` and `lint` read them), relative to `cwd`. */
async function loadGoldens(paths: readonly string[], cwd: string): Promise<NamedGolden[]> {
  const [{ readGolden }, { findGoldens }] = await Promise.all([
    import('../store/golden-file.js'),
    import('../verify/find-goldens.js'),
  ]);
  const files = await findGoldens(paths, cwd);
  return Promise.all(files.map(async (file) => ({ file, golden: await readGolden(file) })));
}

function parsePace(raw: string | undefined): Pace {
  if (raw === undefined || raw === 'recorded') return 'recorded';
  if (raw === 'instant') return 'instant';
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale <= 0) {
    throw new GoldenError(
      'E_USAGE',
      `Invalid --pace "${raw}": expected recorded, instant, or a positive time scale such as 0.5 or 2.`,
    );
  }
  return { scale };
}

/** `mcp-golden replay`. */
export const replayCommand = defineCommand({
  name: 'replay',
  summary: 'serve goldens as a fake upstream (HTTP or stdio)',
  operands: '<golden.jsonl | dir>...',
  minOperands: 1,
  missing: 'golden path',
  description: `Serves goldens as a fake MCP upstream: recorded frames at their recorded offsets, with the live
request id and progress token stamped in. A directory means every golden in it and its subfolders; goldens recorded
over either transport serve over both (re-framed when the transports differ), and goldens of either
protocol era answer clients of both, over HTTP and stdio alike (a call with no golden of the client's
era is answered from one of the other, re-framed).`,
  options: {
    stdio: {
      type: 'boolean',
      description:
        "serve on stdin/stdout (for gateways that spawn their upstream); the first line picks the connection's era, as SDK v2's serveStdio: initialize for 2025, the _meta envelope (server/discover, no initialize) for 2026-07-28",
    },
    ...LISTEN_OPTIONS,
    pace: {
      type: 'string',
      value: 'P',
      default: 'recorded',
      description: 'recorded, instant, or a time scale such as 2 (half speed)',
    },
    unmatched: {
      type: 'string',
      value: 'M',
      choices: ['error', 'warn', 'passthrough'],
      default: 'error',
      description:
        'error: answer unmatched requests with a JSON-RPC error; warn: the same, and print each one on stderr; passthrough: send them to the live server (--target URL, or --target-stdio CMD with --stdio), stream its answer back, and record each session as a new golden in --out',
    },
    target: {
      type: 'string',
      value: 'URL',
      description: 'with --unmatched passthrough: the live MCP server (http:// URL)',
    },
    'target-stdio': {
      type: 'string',
      value: 'CMD',
      description:
        'with --stdio --unmatched passthrough: the command line of the live MCP server (started at the first miss)',
    },
    out: {
      type: 'string',
      value: 'DIR',
      description:
        "with --unmatched passthrough: where the new goldens go (default: the goldens directory given, else the first golden's)",
    },
    'session-idle-ms': sessionIdleOption('--unmatched passthrough --target'),
    match: {
      type: 'string',
      value: 'M',
      choices: ['ignore-token', 'strict'],
      default: 'ignore-token',
      description:
        'ignore-token: a call with a progress token may be answered from a recording made without one (no progress sent, as a live server answers); strict: only from a recording with a token',
    },
    'split-events': {
      type: 'string',
      value: 'N',
      integer: { min: 1, max: 1000 },
      description: 'write each SSE event in N pieces, as separate reads',
    },
    'split-utf8': { type: 'boolean', description: 'cut each event inside its first multi-byte character' },
    crlf: { type: 'boolean', description: 'end SSE lines with CRLF' },
    'keep-alive-comments': { type: 'boolean', description: 'write ": keepalive" before every event' },
    priming: {
      type: 'boolean',
      description: "write a priming event (id, empty data) before each stream's first event",
    },
    cr: { type: 'boolean', description: 'end SSE lines with a lone CR' },
    'no-event-field': { type: 'boolean', description: 'leave out every event: line' },
    'multiline-data': {
      type: 'boolean',
      description: "write each event's JSON pretty-printed over several data: lines",
    },
    'split-utf8-every': { type: 'boolean', description: 'cut inside every multi-byte character, not only the first' },
    'write-bytes': {
      type: 'string',
      value: 'N',
      integer: { min: 1, max: 1_048_576 },
      description: 'write SSE events in writes of at most N bytes',
    },
    fault: {
      type: 'string',
      value: 'SPEC',
      multiple: true,
      description: `a request-level fault for client tests (repeatable; HTTP only): ${FAULT_SPECS}`,
    },
    'max-body-bytes': {
      type: 'string',
      value: 'N',
      integer: { min: 1, max: 2 ** 31 },
      description: 'largest request body (HTTP) or line (stdio) read (default 4194304)',
    },
  },
  async run(args, io) {
    const positionals = args.operands.map((operand) => pathIn(io, operand));
    // A bad --fault, or a stream option the transport has no stream for, is a usage error before any golden is read.
    const faults = parseFaultSpecs(args.strings('fault'));
    refuseStreamOptionConflicts(args);
    const goldens = await loadGoldens(args.operands, io.cwd);
    const pace = parsePace(args.string('pace'));
    const onUnmatchedRequest = args.string('unmatched') === 'warn' ? 'warn' : 'error';
    const maxBodyBytes = args.integer('max-body-bytes');
    const match = args.string('match') === 'strict' ? 'strict' : 'ignore-token';
    const live = await passthroughOf(args, positionals, io);
    if (args.boolean('stdio')) {
      // The implementation loads here, after parsing: `--help` and usage errors load none of it.
      const { serveReplayStdio } = await import('../replay/stdio-replay.js');
      const { startStdioPassthrough } = await import('../replay/passthrough/index.js');
      const stdioPassthrough =
        live?.transport === 'stdio' ? startStdioPassthrough(live.server, live.out, io.stderr) : undefined;
      const replay = serveReplayStdio(goldens, {
        stdin: io.stdin,
        stdout: io.stdout,
        log: io.stderr,
        pace,
        onUnmatchedRequest,
        match,
        ...(maxBodyBytes !== undefined && { maxLineBytes: maxBodyBytes }),
        ...(stdioPassthrough && { fallback: stdioPassthrough.fallback }),
      });
      // A signal still writes what was passed through: the session ends there. As the bin without a
      // pass-through, a signal ends the process; in process, an aborted io.signal closes the replay.
      const stop = stdioPassthrough || io.signal ? stopRequested(io) : undefined;
      void stop?.stopped.then(async () => {
        await stdioPassthrough?.stop();
        replay.close();
        // Reading on would keep the process alive for a client that never closes its end.
        if (!io.signal) io.stdin.destroy();
      });
      await replay.closed;
      stop?.cancel();
      const { requests, unmatched } = replay.report();
      if (!stdioPassthrough) return unmatched.length > 0 ? 1 : 0;
      reportPassthrough(io, requests.length, unmatched.length, live, stdioPassthrough.passed, stdioPassthrough.files);
      return unmatched.length > stdioPassthrough.passed.length ? 1 : 0;
    }
    const { createReplayServer } = await import('../replay/replay-server.js');
    const { startHttpPassthrough } = await import('../replay/passthrough/index.js');
    const passthrough =
      live?.transport === 'http'
        ? await startHttpPassthrough(live.target, live.out, io.stderr, args.integer('session-idle-ms'))
        : undefined;
    const splitEvents = args.integer('split-events');
    const writeBytes = args.integer('write-bytes');
    const replay = await createReplayServer(goldens, {
      port: args.integer('port') ?? 0,
      log: io.stderr,
      pace,
      onUnmatchedRequest,
      match,
      allowedOrigins: args.strings('allow-origin'),
      ...(passthrough && { fallback: passthrough.fallback }),
      ...(maxBodyBytes !== undefined && { maxBodyBytes }),
      chunking: {
        ...(splitEvents !== undefined && { splitEvents }),
        splitUtf8: args.boolean('split-utf8-every') ? 'every' : args.boolean('split-utf8'),
        crlf: args.boolean('crlf'),
        cr: args.boolean('cr'),
        noEventField: args.boolean('no-event-field'),
        multilineData: args.boolean('multiline-data'),
        ...(writeBytes !== undefined && { writeBytes }),
        keepAliveComments: args.boolean('keep-alive-comments'),
        primingEvents: args.boolean('priming'),
      },
      faults,
    });
    io.stdout.write(`${replay.url}\n`);
    io.stderr.write(
      `[mcp-golden] replaying ${goldens.length} ${goldens.length === 1 ? 'golden' : 'goldens'} on ${replay.url} (Ctrl-C to stop)\n`,
    );
    await stopRequested(io).stopped;
    const { requests, unmatched } = replay.report();
    if (passthrough) {
      const files = await passthrough.finish();
      reportPassthrough(io, requests.length, unmatched.length, live, passthrough.passed, files);
    } else {
      io.stderr.write(
        `[mcp-golden] ${requests.length} ${requests.length === 1 ? 'request' : 'requests'} received, ${unmatched.length} unmatched\n`,
      );
    }
    await replay.close();
    return 0;
  },
});

/** The closing lines of a pass-through replay: what was passed through, and the goldens recorded. */
function reportPassthrough(
  io: CliIo,
  requests: number,
  unmatched: number,
  live: PassthroughTarget | undefined,
  passed: readonly PassedThrough[],
  files: readonly string[],
): void {
  const to = live?.transport === 'http' ? live.target : [live?.server.command, ...(live?.server.args ?? [])].join(' ');
  io.stderr.write(
    `[mcp-golden] ${requests} ${requests === 1 ? 'request' : 'requests'} received, ${unmatched - passed.length} unmatched, ${passed.length} passed through to ${to}\n`,
  );
  for (const entry of passed) io.stderr.write(`[mcp-golden]   passed through: ${entry.request} (${entry.outcome})\n`);
  for (const file of files) io.stderr.write(`[mcp-golden]   recorded: ${file}\n`);
}

/** The live server a miss is passed to, with where its goldens go; usage errors for any other mix. */
type PassthroughTarget =
  | { readonly transport: 'http'; readonly target: string; readonly out: string }
  | { readonly transport: 'stdio'; readonly server: StdioCommand; readonly out: string };

/** The options that shape an SSE stream or fault an HTTP request: `replay --stdio` writes JSON lines and has none. */
const HTTP_STREAM_OPTIONS = [
  'split-events',
  'split-utf8',
  'split-utf8-every',
  'crlf',
  'cr',
  'keep-alive-comments',
  'priming',
  'no-event-field',
  'multiline-data',
  'write-bytes',
  'fault',
] as const;

/** `--cr` with `--crlf` (which line end?), or an HTTP stream option with `--stdio` (which would do nothing), is refused. */
function refuseStreamOptionConflicts(args: {
  boolean(name: string): boolean;
  string(name: string): string | undefined;
  strings(name: string): readonly string[];
}): void {
  const given = (name: (typeof HTTP_STREAM_OPTIONS)[number]): boolean =>
    name === 'fault' ? args.strings(name).length > 0 : args.boolean(name) || args.string(name) !== undefined;
  if (args.boolean('cr') && args.boolean('crlf')) {
    throw new GoldenError(
      'E_USAGE',
      'Conflicting options: --cr and --crlf (one line end for every SSE line). Keep one of them; see `mcp-golden replay --help`.',
    );
  }
  const http = HTTP_STREAM_OPTIONS.filter(given);
  if (args.boolean('stdio') && http.length > 0) {
    throw new GoldenError(
      'E_USAGE',
      `${http.map((name) => `--${name}`).join(', ')} shape${http.length === 1 ? 's' : ''} an HTTP replay's SSE streams and requests; replay --stdio writes JSON lines and has none. Drop ${http.length === 1 ? 'it' : 'them'}, or replay over HTTP (--port).`,
    );
  }
}

/** `--unmatched passthrough`: the live server on `--target` (HTTP) or `--target-stdio` (stdio), recorded into `--out`. */
async function passthroughOf(
  args: { string(name: string): string | undefined; boolean(name: string): boolean },
  operands: readonly string[],
  io: CliIo,
): Promise<PassthroughTarget | undefined> {
  const refuse = (problem: string): never => {
    throw new GoldenError('E_USAGE', `${problem} Run \`mcp-golden replay --help\` for usage.`);
  };
  const target = args.string('target');
  const targetStdio = args.string('target-stdio');
  if (args.string('unmatched') !== 'passthrough') {
    if (target !== undefined || targetStdio !== undefined || args.string('out') !== undefined)
      refuse('--target, --target-stdio and --out go with --unmatched passthrough (the live server a miss is sent to).');
    return undefined;
  }
  const first = operands[0] as string;
  const isDirectory = (await stat(first).catch(() => undefined))?.isDirectory() === true;
  const outOption = args.string('out');
  const out = outOption !== undefined ? pathIn(io, outOption) : isDirectory ? first : dirname(first);
  if (args.boolean('stdio')) {
    if (target !== undefined)
      refuse("replay --stdio passes misses to a stdio server: give --target-stdio '<command line>', not --target URL.");
    if (targetStdio === undefined)
      refuse(
        "Missing --target-stdio '<command line>': replay --stdio --unmatched passthrough sends what no golden matches to that live MCP server.",
      );
    const server = parseStdioOption(targetStdio as string, 'replay');
    if (typeof server === 'string' || !('command' in server)) return refuse(`Invalid --target-stdio "${targetStdio}".`);
    return { transport: 'stdio', server, out };
  }
  if (targetStdio !== undefined)
    refuse('replay over HTTP passes misses to an HTTP server: give --target URL, or replay with --stdio.');
  if (target === undefined)
    refuse('Missing --target URL: --unmatched passthrough sends what no golden matches to that live MCP server.');
  return { transport: 'http', target: target as string, out };
}
