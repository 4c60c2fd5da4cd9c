import { GoldenError, isGoldenError } from '../errors.js';
import type { RecordTarget } from '../record/record-call.js';
import type { RecordedGolden, RecordGoldensResult } from '../record/record-goldens.js';
import type { Scenario } from '../record/scenario.js';
import { type CliIo, pathIn, shownPath, stopRequested } from './cli-io.js';
import { defineCommand } from './command-spec.js';
import { CONFIG_FILE } from './config-file.js';
import { sessionIdleOption } from './listen-options.js';
import { recordConfigOf } from './record-config.js';
import { parseStdioOption, parseTargetOptions, TARGET_OPTIONS, targetValues } from './target-options.js';

/**
 * A scenario list or scenario name given on the command line (or in the config) that cannot be used
 * is a usage error (exit 2), as an unreadable golden is for lint; a scenario that fails while it
 * records stays a failure (exit 1).
 */
async function asUsage<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isGoldenError(error, 'E_SCENARIO')) throw new GoldenError('E_USAGE', error.message);
    throw error;
  }
}

function print(io: CliIo, r: RecordedGolden): void {
  io.stderr.write(
    `[mcp-golden] recorded ${shownPath(io, r.path).padEnd(52)} ${String(r.frames).padStart(4)} frames ${String(r.ms).padStart(6)} ms\n`,
  );
}

/** `mcp-golden record`: the reference server, or any server given by `--stdio`/`--target` or the config file. */
export const recordCommand = defineCommand({
  name: 'record',
  summary: 'record goldens from the reference server or your own (--stdio, --target)',
  operands: '[scenario...]',
  description: `Records goldens, one JSON Lines file per scenario (DIR/<name>.jsonl), each written atomically.
Each recording is a whole client session: initialize, tools/list, the call, answers to the
server's requests from the scenario's "answers", reconnection with Last-Event-ID; in the modern era
(2026-07-28) server/discover, tools/list and the call, answers to input_required rounds, cancel by
closing the stream. --target probes the era with server/discover unless --era says. Secrets in the
target (URL query and userinfo, headers, secret-named arguments and environment) are redacted.
Without --stdio/--target (and no config), it records the reference server (started and stopped here).
Operands name the scenarios to record (default: every scenario in the list). Exit 0 when every
scenario is recorded, 1 when one fails, 2 on a usage error (including a scenario list or a scenario
name that cannot be used).`,
  options: {
    ...TARGET_OPTIONS,
    scenarios: {
      type: 'string',
      value: 'FILE',
      description:
        "a JSON array of scenarios (default: the reference server's standard list; required for --stdio/--target)",
    },
    out: { type: 'string', value: 'DIR', description: 'where to write (default: goldens)' },
    config: {
      type: 'string',
      value: 'FILE',
      description: `record settings (default: ./${CONFIG_FILE}, else "mcp-golden" in package.json)`,
    },
    era: {
      type: 'string',
      value: 'ERA',
      choices: ['legacy', 'modern', 'auto'],
      description:
        'protocol era: legacy (2025: initialize, a session), modern (2026-07-28: server/discover, per-request envelope and Mcp-* headers), or auto (probe an HTTP target with server/discover, fall back to legacy). Overrides the scenarios\' "era". Default: auto for --target, legacy for --stdio and the reference server',
    },
    list: { type: 'boolean', description: 'print the scenario names and descriptions, record nothing' },
    proxy: {
      type: 'boolean',
      description:
        'record a real client instead of scenarios: with --target, serve a recording proxy on --port and print its URL; with --stdio, be the stdio command the client starts (it starts CMD). One golden per client session is written to --out when its client leaves (DELETE, disconnect, --session-idle-ms of quiet, or stdin closed), the rest on Ctrl-C (SIGINT/SIGTERM)',
    },
    'session-idle-ms': sessionIdleOption('--proxy --target'),
    port: {
      type: 'string',
      value: 'N',
      integer: { min: 0, max: 65535 },
      description: 'with --proxy: listen on 127.0.0.1:N (default 0: a free port)',
    },
    concurrency: {
      type: 'string',
      value: 'N',
      integer: { min: 1, max: 64 },
      default: '1',
      description:
        'scenarios recorded at once, each its own session (default 1: then no call shares the server, so its timings are its own)',
    },
  },
  epilog: `Examples:
  mcp-golden record --stdio '<command line>' --scenarios FILE --out DIR
  mcp-golden record --proxy --target URL --port 3333 --out DIR
  mcp-golden record --proxy --stdio '<command line>' --out DIR   (as the command your client starts)
  mcp-golden record --target URL --header 'Name: value' --scenarios FILE --out DIR`,
  async run(args, io) {
    if (args.boolean('proxy'))
      return recordProxyCommand(args.string('target'), args, pathIn(io, args.string('out') ?? 'goldens'), io);
    // The implementation loads here, after parsing: `--help` and usage errors load none of it.
    const [{ loadProjectConfig }, goldens, { recordReferenceGoldens }] = await Promise.all([
      import('./project-config.js'),
      import('../record/record-goldens.js'),
      import('../reference-goldens.js'),
    ]);
    const { loadScenarioFile, loadStandardScenarios, recordGoldens, selectScenarios } = goldens;
    const fromOptions = parseTargetOptions(targetValues(args));
    const config = fromOptions
      ? undefined
      : recordConfigOf(await loadProjectConfig(io.cwd, args.string('config')), io.env);
    const target: RecordTarget | undefined =
      fromOptions ??
      (config && parseTargetOptions({ stdio: config.stdio, target: config.target, header: config.headers }));
    const scenariosFile = args.string('scenarios') ?? config?.scenarios;
    const outOption = args.string('out') ?? config?.out ?? 'goldens';
    const out = pathIn(io, outOption);
    if (target && scenariosFile === undefined) {
      throw new GoldenError(
        'E_USAGE',
        `Missing --scenarios FILE: recording ${args.string('stdio') !== undefined || config?.stdio !== undefined ? '--stdio' : '--target'} needs your own scenario list (the standard list calls the reference server's tools). Expected a JSON array like [{"name": "echo", "tool": "echo", "arguments": {"message": "hi"}}]; pass it with --scenarios FILE.`,
      );
    }
    const scenarios = await asUsage(async () => {
      const list = scenariosFile ? await loadScenarioFile(pathIn(io, scenariosFile)) : await loadStandardScenarios();
      selectScenarios(list, args.operands);
      return list;
    });
    if (args.boolean('list')) {
      for (const s of scenarios) io.stdout.write(`${(s.name ?? '').padEnd(34)} ${s.description ?? ''}\n`);
      return 0;
    }
    const started = performance.now();
    const concurrency = args.integer('concurrency') ?? 1;
    const era = args.string('era') as Scenario['era'];
    // An HTTP target is probed unless told; stdio and the reference server's standard list stay legacy.
    const isHttp = target !== undefined && !(typeof target === 'object' && 'command' in target);
    const eraOf = (s: Scenario): Scenario['era'] => era ?? s.era ?? (isHttp ? 'auto' : undefined);
    const withEra = scenarios.map((s) => {
      const chosen = eraOf(s);
      return chosen === undefined ? s : { ...s, era: chosen };
    });
    const options = {
      outDir: out,
      names: [...args.operands],
      scenarios: withEra,
      onRecorded: (r: RecordedGolden) => print(io, r),
      concurrency,
    };
    const result: RecordGoldensResult = target
      ? await recordGoldens({ ...options, target })
      : await recordReferenceGoldens(options);
    for (const path of result.obsolete) {
      io.stderr.write(
        `[mcp-golden] obsolete: ${shownPath(io, path)} matches no scenario; delete it if it is no longer wanted\n`,
      );
    }
    io.stderr.write(
      `[mcp-golden] ${result.recorded.length} ${result.recorded.length === 1 ? 'golden' : 'goldens'} written to ${outOption} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
    return 0;
  },
});

/** `record --proxy`: with `--target URL` or `--stdio CMD`, and without scenarios. */
async function recordProxyCommand(
  target: string | undefined,
  args: {
    string(name: string): string | undefined;
    strings(name: string): readonly string[];
    integer(name: string): number | undefined;
    operands: readonly string[];
  },
  out: string,
  io: CliIo,
): Promise<number> {
  const refuse = (problem: string): never => {
    throw new GoldenError('E_USAGE', `${problem} Run \`mcp-golden record --help\` for usage.`);
  };
  const stdio = args.string('stdio');
  if (stdio !== undefined && target !== undefined)
    refuse('record --proxy takes --target URL or --stdio CMD, not both.');
  if (stdio === undefined && target === undefined)
    refuse('Missing --target URL or --stdio CMD: record --proxy forwards a client to an MCP server.');
  if (args.string('scenarios') !== undefined || args.operands.length > 0) {
    refuse('record --proxy records what a client does; it takes no scenarios.');
  }
  if (args.strings('header').length > 0)
    refuse("record --proxy forwards the client's own headers; --header is not used.");
  if (stdio !== undefined && args.integer('port') !== undefined)
    refuse('record --proxy --stdio is started by the client as its stdio server; it listens on no --port.');
  const { recordStdioProxySession, startHttpProxyRecording } = await import('../record/proxy-recording.js');
  const log = (line: string): void => {
    io.stderr.write(`${line}\n`);
  };
  const server = stdio === undefined ? undefined : parseStdioOption(stdio);
  if (server !== undefined && typeof server !== 'string' && 'command' in server) {
    // The proxy is the stdio command the client starts: nothing but the server's bytes on stdout.
    const stop = stopRequested(io);
    try {
      const files = await recordStdioProxySession({
        server,
        out,
        input: io.stdin,
        output: io.stdout,
        stop: stop.stopped,
        log,
      });
      io.stderr.write(
        `[mcp-golden] ${files.length} ${files.length === 1 ? 'session' : 'sessions'} written to ${out}\n`,
      );
      return 0;
    } finally {
      stop.cancel();
    }
  }
  const sessionIdleMs = args.integer('session-idle-ms');
  const proxy = await startHttpProxyRecording({
    target: target as string,
    port: args.integer('port') ?? 0,
    out,
    log,
    ...(sessionIdleMs !== undefined && { sessionIdleMs }),
  });
  io.stdout.write(`${proxy.url}\n`);
  io.stderr.write(
    `[mcp-golden] recording proxy for ${proxy.label} on ${proxy.url}: point your client here; each session's golden is written to ${out} when its client leaves, the others on Ctrl-C\n`,
  );
  await stopRequested(io).stopped;
  const files = await proxy.close();
  io.stderr.write(`[mcp-golden] ${files.length} ${files.length === 1 ? 'session' : 'sessions'} written to ${out}\n`);
  return 0;
}
