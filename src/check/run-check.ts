import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { GoldenError, isGoldenError } from '../errors.js';
import { removeAtExit, removeNow } from '../process/remove-at-exit.js';
import type { RecordTarget } from '../record/record-call.js';
import type { AuditEntry } from '../server/audit-log.js';
import { type ReferenceServer, startReferenceServer } from '../server/http-server.js';
import { referenceStdioCommand } from '../server/reference-stdio-command.js';
import type { Era } from '../transcript/frame.js';
import { stdioAudit } from './audit.js';
import { BATTERY, longCall } from './battery.js';
import {
  fillTemplate,
  freePort,
  type GatewayCrash,
  GatewayStartError,
  GatewaySupervisor,
  type LaunchedGateway,
  startGateway,
} from './gateway-process.js';
import { DID_NOT_START, eraInAudit, spawnsProcesses, unmetNeed } from './kit.js';
import { runBattery } from './run-battery.js';
import { answeredJsonRpc, CheckSetupError, causeText, probe, silentTimeout, startFix, tail } from './setup-error.js';
import type { BatteryContext, BatteryProperty, CheckReport, PropertyResult, UpstreamEra } from './vocabulary.js';

/** Options of {@link runGatewayCheck}. */
export interface CheckOptions {
  /** Command that starts the gateway, with `{upstream}` and `{port}` placeholders. */
  readonly gateway?: string;
  /** URL of a gateway that is already running (its upstream must be on `upstreamPort`). */
  readonly gatewayUrl?: string;
  /** Port for the reference upstream (needed with `gatewayUrl`). @default 0 */
  readonly upstreamPort?: number;
  /** How the gateway reaches the upstream: over HTTP (`{upstream}` is a URL) or by spawning it (`{upstream}` is a command). @default 'http' */
  readonly upstreamTransport?: 'http' | 'stdio';
  /** How the client reaches the gateway. @default 'http' */
  readonly clientTransport?: 'http' | 'stdio';
  /** Path of the gateway's MCP endpoint. @default '/mcp' */
  readonly gatewayPath?: string;
  /** Reference upstream switches (HTTP upstream only). */
  readonly upstream?: { readonly accelHeader?: boolean; readonly keepAliveMs?: number };
  /** Longest wait for any one message, and for the gateway to start listening; at least {@link MIN_CHECK_TIMEOUT_MS}. @default 10000 */
  readonly timeoutMs?: number;
  /** Run only properties whose name contains one of these; none matching is an `E_USAGE` error. */
  readonly only?: readonly string[];
  /** Add the long-call row (the `--long` profile): a call of `totalMs` with progress every `everyMs`. */
  readonly long?: { readonly totalMs: number; readonly everyMs: number };
  /** The era the check's client speaks to the gateway (`modern`: 2026-07-28, HTTP only). @default 'legacy' */
  readonly clientEra?: Era;
  /** The era of the reference upstream: `legacy` 2025-11-25 only, `modern` 2026-07-28 only (HTTP only), `dual` both (HTTP only). @default 'legacy' */
  readonly upstreamEra?: UpstreamEra;
  /** A gateway that does not bridge the client's era to the upstream's fails the check (else that finding alone passes). @default false */
  readonly requireBridge?: boolean;
  /** How long the idle row's call stays silent before its result (modern upstream). @default 3000 */
  readonly idleBudgetMs?: number;
  /**
   * Port of a second upstream replica for a gateway already running (`gatewayUrl`); with
   * `gateway`, name `{upstream2}` in the command instead. Either runs the session affinity row.
   */
  readonly upstream2Port?: number;
  /** Called before and after each property, in battery order, for a progress display (properties run several at once: both calls come when it is done). */
  readonly onProgress?: (event: { index: number; total: number; property: string; result?: PropertyResult }) => void;
}

/**
 * The smallest `timeoutMs` the battery can judge with: its slowest property sends a message every
 * 500 ms and its largest result is 3.2 MB, so a shorter wait fails faithful gateways on a busy machine.
 */
export const MIN_CHECK_TIMEOUT_MS = 2000;

/** The audit rows of the upstream and, when there is one, its second replica: oldest call first. */
function bothReplicas(upstream: ReferenceServer, replica2: ReferenceServer | undefined): AuditEntry[] {
  const rows = upstream.audit.entries();
  if (!replica2) return rows;
  return [...rows, ...replica2.audit.entries()].sort((a, b) => a.startedAtEpochMs - b.startedAtEpochMs);
}

/** The row that names each crash of the gateway process: a failure of its own. */
export const CRASH_ROW = 'gateway process stays up';

function crashRow(crashes: readonly GatewayCrash[], gaveUp: string | undefined): PropertyResult {
  const one = (c: GatewayCrash): string => {
    const during = c.duringRows.length > 0 ? `during ${c.duringRows.map((r) => `"${r}"`).join(', ')}` : 'between rows';
    const output = c.output.split('\n').join(' | ') || '(nothing)';
    return `the gateway process ${c.reason} ${during}, ${(c.atMs / 1000).toFixed(1)} s into the check; its output ended with: ${output}`;
  };
  return {
    property: CRASH_ROW,
    verdict: 'fail',
    evidence: `${crashes.map(one).join('; then ')}. ${gaveUp ? `The rows left were not run: ${gaveUp}` : 'The rows it was running ran again, and the rest ran, on a fresh gateway process'}`,
    numbers: { crashes: crashes.length, exit: crashes[0]?.reason ?? '' },
    calls: [],
  };
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}

/** What {@link runGatewayCheck} runs with, once its options are checked. */
interface Settings {
  readonly options: CheckOptions;
  readonly upstreamTransport: 'http' | 'stdio';
  readonly clientTransport: 'http' | 'stdio';
  readonly timeoutMs: number;
  readonly clientEra: Era;
  readonly upstreamEra: UpstreamEra;
  readonly modern: boolean;
  readonly wantsReplica: boolean;
}

/** The options checked: each combination the check cannot run is a usage error that names the way out. */
function settle(options: CheckOptions): Settings {
  if (!options.gateway === !options.gatewayUrl) {
    throw new GoldenError(
      'E_USAGE',
      'Give the gateway either as --gateway "<command with {upstream} and {port}>" or as --gateway-url URL (with --upstream-port N), not both.',
    );
  }
  const upstreamTransport = options.upstreamTransport ?? 'http';
  const clientTransport = options.gatewayUrl ? 'http' : (options.clientTransport ?? 'http');
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (timeoutMs < MIN_CHECK_TIMEOUT_MS) {
    throw new GoldenError(
      'E_USAGE',
      `A timeout of ${timeoutMs} ms is below the battery's minimum of ${MIN_CHECK_TIMEOUT_MS} ms: its slowest property waits 500 ms between messages and moves 3.2 MB, so faithful gateways would fail. Use --timeout ${MIN_CHECK_TIMEOUT_MS} or more.`,
    );
  }
  const template = options.gateway;
  if (template !== undefined && !template.includes('{upstream}') && !template.includes('{port}')) {
    throw new GoldenError(
      'E_USAGE',
      `The --gateway command "${template}" has neither {upstream} nor {port}. Put {upstream} where the gateway takes its upstream and {port} where it takes its listening port.`,
    );
  }
  if (template?.includes('{upstream}') && clientTransport === 'http' && !template.includes('{port}')) {
    throw new GoldenError(
      'E_USAGE',
      `The --gateway command "${template}" has no {port}. The check picks a free port and connects there over HTTP (--client-transport http, the default). Put {port} where the gateway takes its listening port (e.g. --port {port}, or PORT={port} before the command), or give --client-transport stdio for a gateway its client talks to on stdio.`,
    );
  }
  const clientEra = options.clientEra ?? 'legacy';
  const upstreamEra = options.upstreamEra ?? 'legacy';
  if (clientEra === 'modern' && clientTransport !== 'http') {
    throw new GoldenError(
      'E_USAGE',
      '--client-era modern needs --client-transport http: the check judges the 2026-07-28 duties (cancel by closing, Mcp-* headers, re-issue) over Streamable HTTP only. Drop --client-transport stdio, or use --client-era legacy.',
    );
  }
  const wantsReplica = options.upstream2Port !== undefined || options.gateway?.includes('{upstream2}') === true;
  if (wantsReplica && upstreamTransport !== 'http') {
    throw new GoldenError(
      'E_USAGE',
      '{upstream2} (or --upstream2-port) starts a second upstream replica over HTTP, for the session affinity row; with --upstream-transport stdio the gateway spawns its upstreams itself. Drop {upstream2}, or use --upstream-transport http.',
    );
  }
  const modern = clientEra === 'modern' || upstreamEra !== 'legacy';
  return { options, upstreamTransport, clientTransport, timeoutMs, clientEra, upstreamEra, modern, wantsReplica };
}

/** The rows to run: the battery (era rows only where a leg is modern or `--only` names them), `--long`, `--only`. */
function chooseRows({ options, modern }: Settings): BatteryProperty[] {
  const rows: BatteryProperty[] = [
    // In 2025 on both legs the era rows are n/a: listed only when --only asks for them (as --eras all may).
    ...BATTERY.filter((p) => p.era !== 'modern' || modern || options.only?.some((o) => p.name.includes(o))),
    ...(options.long ? [longCall(options.long.totalMs, options.long.everyMs)] : []),
  ];
  const chosen = rows.filter((p) => !options.only?.length || options.only.some((o) => p.name.includes(o)));
  if (chosen.length === 0) {
    throw new GoldenError(
      'E_USAGE',
      `--only ${options.only?.map((o) => JSON.stringify(o)).join(', ')} matches no property. The properties are:\n${rows.map((p) => `  ${p.name}`).join('\n')}\nGive part of one of these names, e.g. --only cancellation.`,
    );
  }
  return chosen;
}

/** The reference upstream (and its second replica) the check started, and how to reach it. */
interface Upstreams {
  readonly upstream?: ReferenceServer;
  readonly replica2?: ReferenceServer;
  /** The upstream itself, for reference recordings. */
  readonly direct: RecordTarget;
  /** What `{upstream}` becomes: a URL, or a shell-quoted stdio command. */
  readonly spec: string;
  /** Where the stdio upstreams write their audit file. */
  readonly auditDir?: string;
}

/** Starts the reference upstream(s) in the upstream's era; `started` receives each as soon as it runs, so a later failure still stops it. */
async function startUpstreams(settings: Settings, started: (u: Partial<Upstreams>) => void): Promise<Upstreams> {
  const { options } = settings;
  if (settings.upstreamTransport === 'stdio') {
    const plain = referenceStdioCommand();
    // The upstream's era, as `serve --stdio --era` serves it (the opening message picks it under `dual`).
    const args = [...(plain.args ?? []), '--check-tools', '--era', settings.upstreamEra];
    // Only the upstreams the gateway starts write the audit file: a row there is a call that came
    // through the gateway, never one of the check's own direct calls.
    const auditDir = await mkdtemp(join(tmpdir(), 'mcp-golden-check-audit-'));
    removeAtExit(auditDir);
    started({ auditDir });
    const spec = [plain.command, ...args, '--audit-file', join(auditDir, 'audit.jsonl')].map(quote).join(' ');
    return { direct: { ...plain, args }, spec, auditDir };
  }
  const serve = (port: number | undefined, extra: { sessionIdPrefix?: string }): Promise<ReferenceServer> =>
    startReferenceServer({
      port: port ?? 0,
      ...options.upstream,
      checkTools: true,
      // The Mcp-* headers row judges Mcp-Param-* from the audit: a missing one fails that row only.
      paramHeaders: 'record',
      ...(settings.upstreamEra === 'modern' && { legacy: 'reject' as const }),
      ...(settings.upstreamEra === 'legacy' && { modern: 'reject' as const }),
      ...extra,
    });
  const upstream = await serve(options.upstreamPort, {});
  started({ upstream });
  // Separate session state, and ids the first replica never hands out.
  const replica2 = settings.wantsReplica
    ? await serve(options.upstream2Port, { sessionIdPrefix: 'replica2-session-' })
    : undefined;
  if (replica2) started({ replica2 });
  return { upstream, ...(replica2 && { replica2 }), direct: upstream.url, spec: upstream.url };
}

/** The gateway as the rows reach it: its target, its label, and the supervisor of the process the check started over HTTP. */
interface GatewayUnderCheck {
  readonly target: RecordTarget;
  readonly label: string;
  readonly supervisor?: GatewaySupervisor;
  /** Ms the gateway process took to listen, where the check started one over HTTP. */
  readonly listenMs?: number;
}

/** Starts the gateway (over HTTP) or builds its stdio command (a process per session); a gateway that does not start is a setup error. */
async function startGatewayUnderCheck(settings: Settings, ups: Upstreams): Promise<GatewayUnderCheck> {
  const { options, timeoutMs } = settings;
  if (options.gatewayUrl) return { target: options.gatewayUrl, label: options.gatewayUrl };
  const template = options.gateway as string;
  const fill = (port: number): string =>
    fillTemplate(template, { upstream: ups.spec, port, ...(ups.replica2 && { upstream2: ups.replica2.url }) });
  if (settings.clientTransport === 'stdio') {
    const label = fill(await freePort());
    return { target: { command: '/bin/sh', args: ['-c', label], label }, label };
  }
  const launch = async (): Promise<LaunchedGateway> => {
    const port = await freePort();
    const process = await startGateway(fill(port), port, timeoutMs);
    return { process, target: `http://127.0.0.1:${port}${options.gatewayPath ?? '/mcp'}` };
  };
  const began = performance.now();
  const first = await launch().catch((error: unknown) => {
    if (!isGoldenError(error, 'E_TARGET') && !isGoldenError(error, 'E_TIMEOUT')) throw error;
    const silent = error instanceof GatewayStartError && silentTimeout(error, error.output);
    throw new CheckSetupError(
      `The gateway did not start: ${error.message.replace(/^The gateway/, 'the gateway')}`,
      startFix(template, settings.upstreamTransport, settings.clientTransport, {
        silent,
        timeoutMs,
        ...(error instanceof GatewayStartError && { output: error.output }),
      }),
    );
  });
  const listenMs = performance.now() - began;
  return {
    target: first.target,
    label: first.process.command,
    supervisor: new GatewaySupervisor(first, launch),
    listenMs,
  };
}

/**
 * One call through the gateway before the rows. A gateway that answers it with a JSON-RPC error is
 * up and speaking MCP: what it does wrong is for the rows to judge. Anything else is a setup error
 * naming the likely fix. Returns how long the gateway took to answer.
 */
async function checkFirstCall(
  settings: Settings,
  gateway: GatewayUnderCheck,
  ups: Upstreams,
): Promise<{ readonly readyMs: number } | { readonly noBridge: NonNullable<CheckReport['noBridge']> }> {
  const { options, timeoutMs } = settings;
  const first = await probe(gateway.target, timeoutMs, settings.clientEra);
  if ('readyMs' in first) return first;
  if (answeredJsonRpc(first.error)) {
    const noBridge = notBridged(settings, first.error);
    return noBridge ? { noBridge } : { readyMs: 0 };
  }
  const cause = causeText(first.error);
  if (options.gatewayUrl) {
    throw new CheckSetupError(
      `The first call to --gateway-url ${options.gatewayUrl} failed: ${cause}`,
      `Likely fix: start the gateway first, or fix the host, port and path in --gateway-url; it must forward to the check's upstream on 127.0.0.1:${ups.upstream?.port ?? options.upstreamPort} (--upstream-port).`,
    );
  }
  const fix = (silent: boolean, output?: string): string =>
    startFix(options.gateway ?? '', settings.upstreamTransport, settings.clientTransport, {
      silent,
      timeoutMs,
      ...(output !== undefined && { output }),
    });
  const process = gateway.supervisor?.process;
  if (!process) {
    throw new CheckSetupError(
      `The gateway did not take a first call over stdio: ${cause}\nThe command as run: ${gateway.label}`,
      fix(isGoldenError(first.error, 'E_TIMEOUT')),
    );
  }
  await Promise.race([process.exit, sleep(500)]);
  const exited = process.exited();
  const how =
    exited !== undefined
      ? `The gateway "${process.command}" started listening, then ${exited} before the first row (the first call failed: ${cause}).`
      : isGoldenError(first.error, 'E_TIMEOUT')
        ? `The gateway "${process.command}" listens but did not answer a first call within ${timeoutMs} ms: ${cause}`
        : `The first call through the gateway "${process.command}" failed: ${cause}`;
  throw new CheckSetupError(
    `${how}\nIts output ended with:\n${tail(process.output())}`,
    fix(exited === undefined && silentTimeout(first.error, process.output()), process.output()),
  );
}

const ERA_NAME = { legacy: '2025-11-25', modern: '2026-07-28', dual: '2025-11-25 and 2026-07-28' } as const;

/**
 * The finding that the gateway does not bridge the eras of this combination: the client's first
 * request, of an era the upstream does not speak, came back refused (a JSON-RPC error over HTTP), as
 * a request passed through unchanged does. `undefined` where the eras agree or the upstream speaks both.
 */
function notBridged(settings: Settings, error: unknown): CheckReport['noBridge'] {
  const { clientEra: from, upstreamEra: to } = settings;
  if (to === 'dual' || from === to) return undefined;
  const text = error instanceof Error ? error.message : String(error);
  const status = /HTTP (\d{3})/.exec(text)?.[1];
  const code = /"code":(-?\d+)/.exec(text)?.[1];
  const message = /"message":"((?:[^"\\]|\\.)*)"/.exec(text)?.[1];
  // Only the upstream's refusal of the other era: -32022 from a 2026-07-28-only server, -32000 "Server
  // not initialized" from a 2025-only one. Any other refusal (a header a bridge left out) is the rows' to judge.
  const eraRefusal = code === '-32022' || (code === '-32000' && /not initialized/i.test(message ?? ''));
  if (!eraRefusal) return undefined;
  const sent =
    from === 'modern' ? 'server/discover (2026-07-28 envelope, Mcp-* headers, no session)' : 'initialize (2025-11-25)';
  return {
    from,
    to,
    evidence:
      `does not bridge ${ERA_NAME[from]} to ${ERA_NAME[to]}: the client sent ${sent}; it came back HTTP ${status ?? '?'} ${code ?? ''} ${message === undefined ? '' : JSON.stringify(message.replaceAll('\\"', '"'))}, the ${ERA_NAME[to]}-only upstream's refusal of a request in the other era`.replace(
        /\s+/g,
        ' ',
      ),
  };
}

/**
 * With an upstream of both eras, the era the gateway spoke to it: the upstream's audit row of the
 * first call through the gateway (the probe's `chatty`). A bridge may pick either era there.
 */
async function upstreamLegEra(settings: Settings, ups: Upstreams): Promise<Era | undefined> {
  if (settings.upstreamEra !== 'dual' || !ups.upstream) return undefined;
  return eraInAudit(await ups.upstream.audit.entries(), 'chatty');
}

/** The context the rows run with, on the gateway at `target` (a fresh process after a crash has its own URL). */
function contextFor(
  settings: Settings,
  ups: Upstreams,
  target: RecordTarget,
  onStarted: (ms: number) => void,
  upstreamLegEra?: Era,
) {
  const { upstream, replica2 } = ups;
  const context: BatteryContext = {
    gateway: target,
    direct: ups.direct,
    clientTransport: settings.clientTransport,
    upstreamTransport: settings.upstreamTransport,
    timeoutMs: settings.timeoutMs,
    upstreamAccelHeader: upstream !== undefined && settings.options.upstream?.accelHeader !== false,
    clientEra: settings.clientEra,
    upstreamEra: settings.upstreamEra,
    ...(upstreamLegEra && { upstreamLegEra }),
    onStarted,
    ...(settings.options.idleBudgetMs !== undefined && { idleBudgetMs: settings.options.idleBudgetMs }),
    ...(upstream &&
      replica2 && {
        replicas: [async () => upstream.audit.entries(), async () => replica2.audit.entries()] as const,
      }),
    audit: upstream
      ? async () => bothReplicas(upstream, replica2)
      : () => stdioAudit(target, settings.timeoutMs, join(ups.auditDir as string, 'audit.jsonl'), settings.clientEra),
  };
  return context;
}

/** Runs the rows through the gateway, each on the live gateway process (a fresh one after a crash), and adds the crash row. */
async function runRows(
  settings: Settings,
  chosen: readonly BatteryProperty[],
  gateway: GatewayUnderCheck,
  contextOn: (target: RecordTarget) => BatteryContext,
): Promise<PropertyResult[]> {
  const context = contextOn(gateway.target);
  const { supervisor } = gateway;
  const run = async (property: BatteryProperty): Promise<PropertyResult> => {
    const unmet = unmetNeed(property, context);
    if (unmet) return { property: property.name, verdict: 'n/a', evidence: unmet, numbers: {}, calls: [] };
    if (!supervisor) return property.run(context);
    const failed = (evidence: string): PropertyResult => ({
      property: property.name,
      verdict: 'fail',
      evidence,
      numbers: {},
      calls: [],
    });
    return supervisor.run(
      property.name,
      (url) => property.run(contextOn(url)),
      (r) => r.verdict === 'fail',
      (why) => failed(`not run: ${why}`),
      (r, why) => ({ ...r, verdict: 'fail', evidence: `${why}: ${r.evidence}` }),
    );
  };
  const results = await runBattery(chosen, {
    spawns: spawnsProcesses(context),
    run,
    onResult: (index, result) => {
      settings.options.onProgress?.({ index, total: chosen.length, property: result.property });
      settings.options.onProgress?.({ index, total: chosen.length, property: result.property, result });
    },
  });
  await supervisor?.settle();
  const crashes = supervisor?.crashes ?? [];
  if (crashes.length > 0) results.push(crashRow(crashes, supervisor?.gaveUp));
  return results;
}

/** The report's `starts`: how long the processes the check started took to answer a first request. */
function startsOf(ms: readonly number[], results: readonly PropertyResult[]): CheckReport['starts'] {
  const late = results.filter((r) => r.verdict === 'inconclusive' && r.evidence.startsWith(DID_NOT_START)).length;
  if (ms.length === 0 && late === 0) return undefined;
  const sorted = [...ms].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
  return { count: ms.length, medianMs: Math.round(median), longestMs: Math.round(sorted.at(-1) ?? 0), late };
}

/** The report of a combination the gateway does not bridge: one finding, every row n/a; a failure only with `requireBridge`. */
function noBridgeReport(
  settings: Settings,
  chosen: readonly BatteryProperty[],
  gateway: GatewayUnderCheck,
  noBridge: NonNullable<CheckReport['noBridge']>,
  started: number,
): CheckReport {
  const evidence = `not judged: the gateway ${noBridge.evidence.replace(/:.*/, '')} (the finding above)`;
  return {
    gateway: gateway.label,
    upstreamTransport: settings.upstreamTransport,
    clientTransport: settings.clientTransport,
    eras: { client: settings.clientEra, upstream: settings.upstreamEra },
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    pass: settings.options.requireBridge !== true,
    results: chosen.map((p) => ({ property: p.name, verdict: 'n/a' as const, evidence, numbers: {}, calls: [] })),
    noBridge,
    ...(settings.options.only && settings.options.only.length > 0 && { only: settings.options.only }),
  };
}

/**
 * Starts the reference upstream and the gateway, runs the battery of streaming properties through
 * the gateway (each compared with the same call made directly), stops everything it started, and
 * returns the verdict per property. Every wait is bounded by `timeoutMs`; a gateway's start is
 * setup, not a verdict: its row clocks start once it has answered a first request.
 *
 * @example
 * const report = await runGatewayCheck({ gateway: 'my-gateway --upstream {upstream} --port {port}' })
 * console.log(formatReport(report))
 */
export async function runGatewayCheck(options: CheckOptions): Promise<CheckReport> {
  const settings = settle(options);
  const chosen = chooseRows(settings);
  const started = Date.now();
  let ups: Partial<Upstreams> = {};
  let gateway: GatewayUnderCheck | undefined;
  try {
    const upstreams = await startUpstreams(settings, (more) => (ups = { ...ups, ...more }));
    ups = upstreams;
    gateway = await startGatewayUnderCheck(settings, upstreams);
    const first = await checkFirstCall(settings, gateway, upstreams);
    if ('noBridge' in first) return noBridgeReport(settings, chosen, gateway, first.noBridge, started);
    const { readyMs } = first;
    const starts: number[] = gateway.listenMs !== undefined ? [gateway.listenMs + readyMs] : [];
    // Where each session starts a process, every one of them is a start (the probe's too).
    const spawns = spawnsProcesses(settings);
    if (spawns && gateway.listenMs === undefined) starts.push(readyMs);
    const onStarted = (ms: number): void => void (spawns && starts.push(ms));
    const leg = await upstreamLegEra(settings, upstreams);
    const results = await runRows(settings, chosen, gateway, (target) =>
      contextFor(settings, upstreams, target, onStarted, leg),
    );
    const measured = startsOf(starts, results);
    return {
      gateway: gateway.label,
      upstreamTransport: settings.upstreamTransport,
      clientTransport: settings.clientTransport,
      ...(settings.modern && { eras: { client: settings.clientEra, upstream: settings.upstreamEra } }),
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      pass: results.every((r) => r.verdict !== 'fail'),
      results,
      ...(options.only && options.only.length > 0 && { only: options.only }),
      ...(measured && { starts: measured }),
    };
  } finally {
    await gateway?.supervisor?.stop();
    await ups.upstream?.close();
    await ups.replica2?.close();
    if (ups.auditDir !== undefined) await removeNow(ups.auditDir);
  }
}
