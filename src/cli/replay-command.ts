import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { GoldenError } from '../errors.js';
import type { Pace } from '../replay/pacing.js';
import type { NamedGolden } from '../replay/replay-plan.js';
import { createReplayServer } from '../replay/replay-server.js';
import { serveReplayStdio } from '../replay/stdio-replay.js';
import { GOLDEN_EXTENSION, readGolden } from '../store/golden-file.js';
import { defineCommand } from './command-spec.js';
import { LISTEN_OPTIONS } from './listen-options.js';
import { type HttpPassthrough, startHttpPassthrough } from './replay-passthrough.js';

async function loadGoldens(paths: readonly string[]): Promise<NamedGolden[]> {
  const files: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory()) {
      const names = (await readdir(path)).filter((n) => n.endsWith(GOLDEN_EXTENSION)).sort();
      if (names.length === 0) throw new GoldenError('E_USAGE', `No goldens (*.jsonl) in directory "${path}".`);
      files.push(...names.map((n) => join(path, n)));
    } else {
      files.push(path);
    }
  }
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
request id and progress token stamped in. A directory means every golden in it; goldens recorded
over either transport serve over both (re-framed when the transports differ).`,
  options: {
    stdio: { type: 'boolean', description: 'serve on stdin/stdout (for gateways that spawn their upstream)' },
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
        'error: answer unmatched requests with a JSON-RPC error; warn: the same, and print each one on stderr; passthrough: send them to the live server on --target, stream its answer back, and record each session as a new golden in --out (HTTP only)',
    },
    target: {
      type: 'string',
      value: 'URL',
      description: 'with --unmatched passthrough: the live MCP server (http:// URL)',
    },
    out: {
      type: 'string',
      value: 'DIR',
      description:
        "with --unmatched passthrough: where the new goldens go (default: the goldens directory given, else the first golden's)",
    },
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
    'max-body-bytes': {
      type: 'string',
      value: 'N',
      integer: { min: 1, max: 2 ** 31 },
      description: 'largest request body (HTTP) or line (stdio) read (default 4194304)',
    },
  },
  async run(args) {
    const positionals = args.operands;
    const goldens = await loadGoldens(positionals);
    const pace = parsePace(args.string('pace'));
    const onUnmatchedRequest = args.string('unmatched') === 'warn' ? 'warn' : 'error';
    const maxBodyBytes = args.integer('max-body-bytes');
    const match = args.string('match') === 'strict' ? 'strict' : 'ignore-token';
    const passthrough = await passthroughOf(args, positionals);
    if (args.boolean('stdio')) {
      const replay = serveReplayStdio(goldens, {
        pace,
        onUnmatchedRequest,
        match,
        ...(maxBodyBytes !== undefined && { maxLineBytes: maxBodyBytes }),
      });
      await replay.closed;
      return replay.report().unmatched.length > 0 ? 1 : 0;
    }
    const splitEvents = args.integer('split-events');
    const replay = await createReplayServer(goldens, {
      port: args.integer('port') ?? 0,
      pace,
      onUnmatchedRequest,
      match,
      allowedOrigins: args.strings('allow-origin'),
      ...(passthrough && { fallback: passthrough.fallback }),
      ...(maxBodyBytes !== undefined && { maxBodyBytes }),
      chunking: {
        ...(splitEvents !== undefined && { splitEvents }),
        splitUtf8: args.boolean('split-utf8'),
        crlf: args.boolean('crlf'),
        keepAliveComments: args.boolean('keep-alive-comments'),
        primingEvents: args.boolean('priming'),
      },
    });
    process.stdout.write(`${replay.url}\n`);
    process.stderr.write(`[mcp-golden] replaying ${goldens.length} golden(s) on ${replay.url} (Ctrl-C to stop)\n`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    const { requests, unmatched } = replay.report();
    if (passthrough) {
      const files = await passthrough.finish();
      const passed = passthrough.passed;
      process.stderr.write(
        `[mcp-golden] ${requests.length} request(s) received, ${unmatched.length - passed.length} unmatched, ${passed.length} passed through to ${args.string('target')}\n`,
      );
      for (const entry of passed)
        process.stderr.write(`[mcp-golden]   passed through: ${entry.request} (${entry.outcome})\n`);
      for (const file of files) process.stderr.write(`[mcp-golden]   recorded: ${file}\n`);
    } else {
      process.stderr.write(`[mcp-golden] ${requests.length} request(s) received, ${unmatched.length} unmatched\n`);
    }
    await replay.close();
    return 0;
  },
});

/** `--unmatched passthrough`: the live server on `--target`, recorded into `--out`; usage errors otherwise. */
async function passthroughOf(
  args: { string(name: string): string | undefined; boolean(name: string): boolean },
  operands: readonly string[],
): Promise<HttpPassthrough | undefined> {
  const refuse = (problem: string): never => {
    throw new GoldenError('E_USAGE', `${problem} Run \`mcp-golden replay --help\` for usage.`);
  };
  const target = args.string('target');
  if (args.string('unmatched') !== 'passthrough') {
    if (target !== undefined || args.string('out') !== undefined)
      refuse('--target and --out go with --unmatched passthrough (the live server a miss is sent to).');
    return undefined;
  }
  if (args.boolean('stdio'))
    refuse('--unmatched passthrough serves over HTTP only; replay without --stdio, or with --unmatched error.');
  if (target === undefined)
    refuse('Missing --target URL: --unmatched passthrough sends what no golden matches to that live MCP server.');
  const first = operands[0] as string;
  const isDirectory = (await stat(first).catch(() => undefined))?.isDirectory() === true;
  const out = args.string('out') ?? (isDirectory ? first : dirname(first));
  return startHttpPassthrough(target as string, out);
}
