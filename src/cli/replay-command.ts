import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { GoldenError } from '../errors.js';
import type { Pace } from '../replay/replay-options.js';
import type { NamedGolden } from '../replay/replay-plan.js';
import { createReplayServer } from '../replay/replay-server.js';
import { serveReplayStdio } from '../replay/stdio-replay.js';
import { GOLDEN_EXTENSION, readGolden } from '../store/golden-file.js';
import { parseIntegerOption } from './parse-integer-option.js';

export const REPLAY_USAGE = `Usage: mcp-golden replay <golden.jsonl | dir>... [--stdio | --port N] [--pace recorded|instant|SCALE]
                         [--unmatched error|warn] [--split-events N] [--split-utf8] [--crlf]
                         [--keep-alive-comments] [--priming] [--allow-origin ORIGIN]...
                         [--max-body-bytes N]

Serves goldens as a fake MCP upstream: recorded frames at their recorded offsets, with the live
request id and progress token stamped in. A directory means every golden in it; goldens recorded
over either transport serve over both (re-framed when the transports differ).
  --stdio                serve on stdin/stdout (for gateways that spawn their upstream)
  --port N               listen on 127.0.0.1:N (default 0: a free port); prints the URL on stdout
  --pace P               recorded (default), instant, or a time scale such as 2 (half speed)
  --unmatched M          error (default): answer unmatched requests with a JSON-RPC error;
                         warn: the same, and print each one on stderr
  --split-events N       write each SSE event in N pieces, as separate reads
  --split-utf8           cut each event inside its first multi-byte character
  --crlf                 end SSE lines with CRLF
  --keep-alive-comments  write ": keepalive" before every event
  --priming              write a priming event (id, empty data) before each stream's first event
  --allow-origin ORIGIN  also accept requests from this browser Origin (repeatable; * for any).
                         Loopback origins are always accepted; any other gets 403
  --max-body-bytes N     largest request body (HTTP) or line (stdio) read; default 4194304`;

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
export async function replayCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      stdio: { type: 'boolean', default: false },
      port: { type: 'string' },
      pace: { type: 'string' },
      unmatched: { type: 'string', default: 'error' },
      'split-events': { type: 'string' },
      'split-utf8': { type: 'boolean', default: false },
      crlf: { type: 'boolean', default: false },
      'keep-alive-comments': { type: 'boolean', default: false },
      priming: { type: 'boolean', default: false },
      'allow-origin': { type: 'string', multiple: true, default: [] },
      'max-body-bytes': { type: 'string' },
    },
  });
  if (positionals.length === 0) {
    throw new GoldenError(
      'E_USAGE',
      'Missing golden path. Usage: mcp-golden replay goldens/progress-10x100.jsonl [--port N | --stdio]',
    );
  }
  if (values.unmatched !== 'error' && values.unmatched !== 'warn') {
    throw new GoldenError('E_USAGE', `Invalid --unmatched "${values.unmatched}": expected error or warn.`);
  }
  const goldens = await loadGoldens(positionals);
  const pace = parsePace(values.pace);
  const onUnmatchedRequest = values.unmatched;
  const maxBodyBytes = parseIntegerOption('max-body-bytes', values['max-body-bytes'], 1, 2 ** 31);
  if (values.stdio) {
    const replay = serveReplayStdio(goldens, {
      pace,
      onUnmatchedRequest,
      ...(maxBodyBytes !== undefined && { maxLineBytes: maxBodyBytes }),
    });
    await replay.closed;
    return replay.report().unmatched.length > 0 ? 1 : 0;
  }
  const splitEvents = parseIntegerOption('split-events', values['split-events'], 1, 1000);
  const replay = await createReplayServer(goldens, {
    port: parseIntegerOption('port', values.port, 0, 65535) ?? 0,
    pace,
    onUnmatchedRequest,
    allowedOrigins: values['allow-origin'],
    ...(maxBodyBytes !== undefined && { maxBodyBytes }),
    chunking: {
      ...(splitEvents !== undefined && { splitEvents }),
      splitUtf8: values['split-utf8'],
      crlf: values.crlf,
      keepAliveComments: values['keep-alive-comments'],
      primingEvents: values.priming,
    },
  });
  process.stdout.write(`${replay.url}\n`);
  process.stderr.write(`[mcp-golden] replaying ${goldens.length} golden(s) on ${replay.url} (Ctrl-C to stop)\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  const { requests, unmatched } = replay.report();
  process.stderr.write(`[mcp-golden] ${requests.length} request(s) received, ${unmatched.length} unmatched\n`);
  await replay.close();
  return 0;
}
