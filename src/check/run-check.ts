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
  GatewaySupervisor,
  type LaunchedGateway,
  startGateway,
} from './gateway-process.js';
import { spawnsProcesses } from './kit.js';
import { runBattery } from './run-battery.js';
import { answeredJsonRpc, CheckSetupError, causeText, probe, startFix, tail } from './setup-error.js';
import type { BatteryContext, BatteryProperty, CheckReport, PropertyResult } from './vocabulary.js';

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
  /** The era of the reference upstream (`modern`: it refuses the 2025 handshake, HTTP only). @default 'legacy' */
  readonly upstreamEra?: Era;
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

/**
 * Starts the reference upstream and the gateway, runs the battery of streaming properties through
 * the gateway (each compared with the same call made directly), stops everything it started, and
 * returns the verdict per property. Every wait is bounded by `timeoutMs`.
 *
 * @example
 * const report = await runGatewayCheck({ gateway: 'my-gateway --upstream {upstream} --port {port}' })
 * console.log(formatReport(report))
 */
export async function runGatewayCheck(options: CheckOptions): Promise<CheckReport> {
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
  const clientEra = options.clientEra ?? 'legacy';
  const upstreamEra = options.upstreamEra ?? 'legacy';
  const modern = clientEra === 'modern' || upstreamEra === 'modern';
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
  if (upstreamEra === 'modern' && upstreamTransport !== 'http') {
    throw new GoldenError(
      'E_USAGE',
      '--upstream-era modern needs --upstream-transport http: the modern-only reference upstream is served over Streamable HTTP only. Drop --upstream-transport stdio, or use --upstream-era legacy.',
    );
  }
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
  const started = Date.now();
  let upstream: ReferenceServer | undefined;
  let replica2: ReferenceServer | undefined;
  let gateway: GatewaySupervisor | undefined;
  let auditDir: string | undefined;
  try {
    let direct: RecordTarget;
    let upstreamSpec: string;
    if (upstreamTransport === 'http') {
      upstream = await startReferenceServer({
        port: options.upstreamPort ?? 0,
        ...options.upstream,
        checkTools: true,
        // The Mcp-* headers row judges Mcp-Param-* from the audit: a missing one fails that row only.
        paramHeaders: 'record',
        ...(upstreamEra === 'modern' && { legacy: 'reject' as const }),
      });
      direct = upstream.url;
      upstreamSpec = upstream.url;
      if (wantsReplica) {
        replica2 = await startReferenceServer({
          port: options.upstream2Port ?? 0,
          ...options.upstream,
          checkTools: true,
          // Separate session state, and ids the first replica never hands out.
          sessionIdPrefix: 'replica2-session-',
          paramHeaders: 'record',
          ...(upstreamEra === 'modern' && { legacy: 'reject' as const }),
        });
      }
    } else {
      const plain = referenceStdioCommand();
      const args = [...(plain.args ?? []), '--check-tools'];
      direct = { ...plain, args };
      // Only the upstreams the gateway starts write the audit file: a row there is a call that came
      // through the gateway, never one of the check's own direct calls.
      auditDir = await mkdtemp(join(tmpdir(), 'mcp-golden-check-audit-'));
      removeAtExit(auditDir);
      upstreamSpec = [plain.command, ...args, '--audit-file', join(auditDir, 'audit.jsonl')].map(quote).join(' ');
    }
    let target: RecordTarget;
    let label: string;
    if (options.gatewayUrl) {
      target = options.gatewayUrl;
      label = options.gatewayUrl;
    } else {
      const launch = async (): Promise<LaunchedGateway> => {
        const port = await freePort();
        const command = fillTemplate(options.gateway as string, {
          upstream: upstreamSpec,
          port,
          ...(replica2 && { upstream2: replica2.url }),
        });
        const process = await startGateway(command, port, timeoutMs);
        return { process, target: `http://127.0.0.1:${port}${options.gatewayPath ?? '/mcp'}` };
      };
      if (clientTransport === 'http') {
        const first = await launch().catch((error: unknown) => {
          if (!isGoldenError(error, 'E_TARGET') && !isGoldenError(error, 'E_TIMEOUT')) throw error;
          throw new CheckSetupError(
            `The gateway did not start: ${error.message.replace(/^The gateway/, 'the gateway')}`,
            startFix(options.gateway ?? '', upstreamTransport, clientTransport),
          );
        });
        label = first.process.command;
        gateway = new GatewaySupervisor(first, launch);
        target = first.target;
      } else {
        label = fillTemplate(options.gateway as string, {
          upstream: upstreamSpec,
          port: await freePort(),
          ...(replica2 && { upstream2: replica2.url }),
        });
        target = { command: '/bin/sh', args: ['-c', label], label };
      }
    }
    const contextFor = (gatewayTarget: RecordTarget): BatteryContext => ({
      gateway: gatewayTarget,
      direct,
      clientTransport,
      upstreamTransport,
      timeoutMs,
      upstreamAccelHeader: upstream !== undefined && options.upstream?.accelHeader !== false,
      clientEra,
      upstreamEra,
      ...(options.idleBudgetMs !== undefined && { idleBudgetMs: options.idleBudgetMs }),
      ...(upstream &&
        replica2 && {
          replicas: [
            async () => (upstream as ReferenceServer).audit.entries(),
            async () => (replica2 as ReferenceServer).audit.entries(),
          ] as const,
        }),
      audit: upstream
        ? async () => bothReplicas(upstream as ReferenceServer, replica2)
        : () => stdioAudit(gatewayTarget, timeoutMs, join(auditDir as string, 'audit.jsonl')),
    });
    const context = contextFor(target);
    const firstCall = await probe(target, timeoutMs, clientEra);
    // A gateway that answers the first call with a JSON-RPC error is up and speaking MCP: what it
    // does wrong (a header it drops, say) is for the rows to judge, not a setup error.
    if (firstCall !== undefined && !answeredJsonRpc(firstCall)) {
      const cause = causeText(firstCall);
      if (options.gatewayUrl) {
        throw new CheckSetupError(
          `The first call to --gateway-url ${options.gatewayUrl} failed: ${cause}`,
          `Likely fix: start the gateway first, or fix the host, port and path in --gateway-url; it must forward to the check's upstream on 127.0.0.1:${upstream?.port ?? options.upstreamPort} (--upstream-port).`,
        );
      }
      if (!gateway) {
        throw new CheckSetupError(
          `The gateway did not take a first call over stdio: ${cause}\nThe command as run: ${label}`,
          startFix(options.gateway ?? '', upstreamTransport, clientTransport),
        );
      }
      const process = gateway.process;
      await Promise.race([process.exit, sleep(500)]);
      const exited = process.exited();
      const how =
        exited !== undefined
          ? `The gateway "${process.command}" started listening, then ${exited} before the first row (the first call failed: ${cause}).`
          : isGoldenError(firstCall, 'E_TIMEOUT')
            ? `The gateway "${process.command}" listens but did not answer a first call within ${timeoutMs} ms: ${cause}`
            : `The first call through the gateway "${process.command}" failed: ${cause}`;
      throw new CheckSetupError(
        `${how}\nIts output ended with:\n${tail(process.output())}`,
        startFix(options.gateway ?? '', upstreamTransport, clientTransport),
      );
    }
    const run = async (property: BatteryProperty): Promise<PropertyResult> => {
      const skipped = (evidence: string): PropertyResult => ({
        property: property.name,
        verdict: 'fail',
        evidence,
        numbers: {},
        calls: [],
      });
      const skip = property.skip?.(context);
      if (skip) return { property: property.name, verdict: 'n/a', evidence: skip, numbers: {}, calls: [] };
      if (!gateway) return property.run(context);
      return gateway.run(
        property.name,
        (url) => property.run(contextFor(url)),
        (r) => r.verdict === 'fail',
        (why) => skipped(`not run: ${why}`),
        (r, why) => ({ ...r, verdict: 'fail', evidence: `${why}: ${r.evidence}` }),
      );
    };
    const results = await runBattery(chosen, {
      spawns: spawnsProcesses(context),
      run,
      onResult: (index, result) => {
        options.onProgress?.({ index, total: chosen.length, property: result.property });
        options.onProgress?.({ index, total: chosen.length, property: result.property, result });
      },
    });
    await gateway?.settle();
    const crashes = gateway?.crashes ?? [];
    if (crashes.length > 0) results.push(crashRow(crashes, gateway?.gaveUp));
    return {
      gateway: label,
      upstreamTransport,
      clientTransport,
      ...(modern && { eras: { client: clientEra, upstream: upstreamEra } }),
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      pass: results.every((r) => r.verdict !== 'fail'),
      results,
      ...(options.only && options.only.length > 0 && { only: options.only }),
    };
  } finally {
    await gateway?.stop();
    await upstream?.close();
    await replica2?.close();
    if (auditDir !== undefined) await removeNow(auditDir);
  }
}
