import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { GoldenError } from '../errors.js';
import { spawnGroup } from '../process/child-group.js';

/** Fills `{upstream}` and `{port}` in a gateway command template (checked by the runner before anything starts). */
export function fillTemplate(template: string, values: { upstream: string; port: number; upstream2?: string }): string {
  const filled = template.replaceAll('{upstream}', values.upstream).replaceAll('{port}', String(values.port));
  return values.upstream2 === undefined ? filled : filled.replaceAll('{upstream2}', values.upstream2);
}

/** The ports the kernel gives outgoing connections (Linux's `ip_local_port_range`), or Linux's default. */
function ephemeralPorts(): readonly [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return [low as number, high as number];
  } catch {
    // Not Linux: assume its default range.
  }
  return [32768, 60999];
}

/** Listens on `port` (0: the OS picks) on 127.0.0.1 and closes again: the port it got, or why it could not. */
function listensAt(port: number): Promise<{ readonly port: number } | { readonly error: Error }> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error) => resolve({ error }));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const got = typeof address === 'object' && address ? address.port : port;
      server.close(() => resolve({ port: got }));
    });
  });
}

const handedOut = new Set<number>();
const LOWEST = 10_000;

/**
 * A free TCP port on 127.0.0.1, released before returning, for a process that will listen there.
 * It is taken below the ephemeral range when there is room: a port the OS picks (port 0) comes
 * from that range, which every outgoing connection also draws from, so between its release and
 * the gateway's `listen` a connection could take it (EADDRINUSE). Below the range only listeners
 * compete, and this process never hands the same port out twice (a port is claimed before it is
 * tried, so two calls at once never try the same one).
 */
export async function freePort(): Promise<number> {
  const [low] = ephemeralPorts();
  for (let attempt = 0; low - LOWEST > 1000 && attempt < 50; attempt++) {
    const port = LOWEST + randomInt(low - LOWEST);
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    const tried = await listensAt(port);
    if ('port' in tried) return port;
    handedOut.delete(port);
  }
  const fallback = await listensAt(0);
  if ('error' in fallback)
    throw new GoldenError(
      'E_TARGET',
      `No free TCP port on 127.0.0.1: listening there on port 0 failed (${fallback.error.message}). Likely fix: stop the processes that hold its ports (or raise the open-file limit for EMFILE), then run the check again.`,
    );
  return fallback.port;
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A gateway that exited or did not listen in time, with what it wrote (`''`: nothing). */
export class GatewayStartError extends GoldenError {
  constructor(
    code: 'E_TARGET' | 'E_TIMEOUT',
    message: string,
    readonly output: string,
  ) {
    super(code, message);
    this.name = 'GatewayStartError';
  }
}

/** A gateway started by the check. */
export interface GatewayProcess {
  readonly command: string;
  /** The last lines it wrote to stdout and stderr. */
  output(): string;
  /** Why it exited, once no process of its group is left (a shell that backgrounded the server is not "exited"). */
  exited(): string | undefined;
  /** Resolves when the process the command started (the group leader) has exited. */
  readonly exit: Promise<void>;
  /** Stops it and every process of its group: SIGTERM, then SIGKILL after `graceMs`; bounded. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts a gateway command through `/bin/sh -c` (so pipes, `&&`, variables and quoting work as
 * in a terminal) as the leader of its own process group, so the shell's children, backgrounded
 * or not, stop with it. When `port` is given, waits until something accepts connections there.
 * A gateway that exits or never listens within `timeoutMs` is stopped (the whole group) and
 * reported as an `E_TARGET` / `E_TIMEOUT` error carrying its output.
 */
export async function startGateway(
  command: string,
  port: number | undefined,
  timeoutMs: number,
): Promise<GatewayProcess> {
  const group = spawnGroup('/bin/sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'], label: command });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  group.child.stdout?.on('data', keep);
  group.child.stderr?.on('data', keep);
  const gateway: GatewayProcess = {
    command,
    output: () => output.trim(),
    exited: () => (group.exited() !== undefined && !group.alive() ? group.exited() : undefined),
    exit: group.exit,
    stop: (graceMs) => group.stop(graceMs),
  };
  if (port === undefined) return gateway;
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      const exitReason = gateway.exited();
      if (exitReason !== undefined) {
        throw new GatewayStartError(
          'E_TARGET',
          `The gateway "${command}" ${exitReason} before listening on 127.0.0.1:${port}. Its output ended with:\n${output.trim() || '(nothing)'}`,
          output.trim(),
        );
      }
      if (await canConnect(port)) return gateway;
      await sleep(50);
    }
    // A gateway that said something and never listened most likely listens elsewhere; one that
    // said nothing may still be starting (the check's setup error names the fix for each).
    const hint = output.trim() === '' ? '' : ' Check that it takes {port} as its listening port.';
    throw new GatewayStartError(
      'E_TIMEOUT',
      `The gateway "${command}" did not listen on 127.0.0.1:${port} within ${timeoutMs} ms (timeout after ${timeoutMs} ms).${hint} Its output ended with:\n${output.trim() || '(nothing)'}`,
      output.trim(),
    );
  } catch (error) {
    // The shell may have exited while its children live on (a backgrounded server): stop them all.
    await group.stop();
    throw error;
  }
}

/** A gateway process that died while the check ran. */
export interface GatewayCrash {
  /** How it ended: `exited with code 3`, `was killed by SIGSEGV`. */
  readonly reason: string;
  /** The last lines it wrote to stdout and stderr. */
  readonly output: string;
  /** The rows that were running when it died (none: it died between rows). */
  readonly duringRows: readonly string[];
  /** Milliseconds into the check. */
  readonly atMs: number;
}

/** What a {@link GatewaySupervisor} starts: a gateway process and the URL the client reaches it at. */
export interface LaunchedGateway {
  readonly process: GatewayProcess;
  readonly target: string;
}

/** Most fresh gateway processes one check starts after crashes. */
export const MAX_GATEWAY_RESTARTS = 3;

/**
 * Watches the check's gateway process: a row runs on the process alive when it starts; when that
 * process dies, the crash is recorded (how it ended, its last output, the rows it was running) and
 * a fresh one is started for the rows still to run. A row whose process died under it runs once
 * more on the fresh one, so its verdict is about the gateway's behaviour, not about the crash.
 */
export class GatewaySupervisor {
  readonly crashes: GatewayCrash[] = [];
  private current: LaunchedGateway;
  private readonly running = new Map<string, number>();
  private readonly diedDuring = new WeakMap<GatewayProcess, Set<string>>();
  private readonly diedAt = new WeakMap<GatewayProcess, number>();
  private restarting: Promise<void> | undefined;
  private readonly started = performance.now();
  private giveUp: string | undefined;

  /** Why no fresh process runs the rows left, once the supervisor gave up; else `undefined`. */
  get gaveUp(): string | undefined {
    return this.giveUp;
  }

  /** The gateway process running now. */
  get process(): GatewayProcess {
    return this.current.process;
  }

  constructor(
    first: LaunchedGateway,
    private readonly launch: () => Promise<LaunchedGateway>,
  ) {
    this.current = first;
    this.watch(first.process);
  }

  private watch(process: GatewayProcess): void {
    this.diedDuring.set(process, new Set());
    void process.exit.then(() => {
      this.diedAt.set(process, performance.now() - this.started);
      for (const row of this.running.keys()) this.diedDuring.get(process)?.add(row);
    });
  }

  /** Records the crash of `dead` and (unless `restart` is false) starts a fresh process, once, however many rows notice it. */
  private replace(dead: LaunchedGateway, restart = true): Promise<void> {
    if (this.current !== dead) return this.restarting ?? Promise.resolve();
    this.restarting ??= (async () => {
      this.crashes.push({
        reason: dead.process.exited() ?? 'exited',
        output: dead.process.output().split('\n').slice(-5).join('\n'),
        duringRows: [...(this.diedDuring.get(dead.process) ?? [])],
        atMs: this.diedAt.get(dead.process) ?? performance.now() - this.started,
      });
      await dead.process.stop();
      if (!restart) return;
      if (this.crashes.length > MAX_GATEWAY_RESTARTS) {
        this.giveUp = `the gateway process died ${this.crashes.length} times; no fresh one was started`;
        return;
      }
      try {
        this.current = await this.launch();
        this.watch(this.current.process);
      } catch (error) {
        this.giveUp = `a fresh gateway process could not be started: ${(error as Error).message.split('\n')[0]}`;
      }
    })().finally(() => {
      this.restarting = undefined;
    });
    return this.restarting;
  }

  /**
   * Runs one row on the live gateway (`body` gets its URL). When the process dies under the row,
   * the row runs once more on a fresh process (`diedUnder` marks the result when it dies again).
   * `isFailure` says when to wait a moment for an exit that the row's broken connection may have
   * come just before; `notRun` is the result when no process is left to run it on.
   */
  async run<T>(
    row: string,
    body: (target: string) => Promise<T>,
    isFailure: (result: T) => boolean,
    notRun: (why: string) => T,
    diedUnder: (result: T, why: string) => T,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      await this.restarting;
      if (this.current.process.exited() !== undefined) await this.replace(this.current);
      if (this.giveUp !== undefined) return notRun(this.giveUp);
      const on = this.current;
      this.running.set(row, (this.running.get(row) ?? 0) + 1);
      let result: T;
      try {
        result = await body(on.target);
      } finally {
        const left = (this.running.get(row) ?? 1) - 1;
        if (left === 0) this.running.delete(row);
        else this.running.set(row, left);
      }
      // A connection cut by the crash can fail the row just before the process's exit is seen.
      if (isFailure(result)) await Promise.race([on.process.exit, sleep(500)]);
      // A row that passed stands, even when the process died right after it.
      if (on.process.exited() === undefined || !isFailure(result)) return result;
      // The row's own connection broke with the process: it ran during the crash.
      this.diedDuring.get(on.process)?.add(row);
      if (attempt > 0)
        return diedUnder(
          result,
          `the gateway process ${on.process.exited()} during this row, again on a fresh process`,
        );
      await this.replace(on);
    }
  }

  /** Records a crash of the process running now that no row noticed (it died during the last rows). */
  async settle(): Promise<void> {
    await this.restarting;
    if (this.current.process.exited() !== undefined && this.giveUp === undefined) {
      await this.replace(this.current, false);
    }
  }

  /** Stops the process running now (crashed ones were stopped when they were replaced), and one still starting. */
  async stop(): Promise<void> {
    await this.restarting?.catch(() => undefined);
    await this.current.process.stop();
  }
}
